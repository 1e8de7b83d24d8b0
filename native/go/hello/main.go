// The hello-world server of the networks chapter, in Go's standard net/http: the kind of
// server seed 000 measured with its Go load generator (the seed does not show its server;
// this is the plainest one). It listens on 127.0.0.1 on a port the kernel picks, prints
// that port on its first line, and answers every request with the 13 bytes
// "Hello, World!" as text/plain. GOMAXPROCS sets its threads.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(1)
	}
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)
	body := []byte("Hello, World!")
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(body)
	})
	if err := http.Serve(listener, nil); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
