// htpasswd -nbB USER PASSWORD prints one bcrypt htpasswd line, as Apache's `htpasswd -nbB` (apache2-utils) does,
// at its default cost (5): the only hash the registry's htpasswd auth accepts (test/helpers/registry-server.ts).
// Built by scripts/test-tools.sh, so the tests need no Debian package.
package main

import (
	"fmt"
	"os"

	"golang.org/x/crypto/bcrypt"
)

func main() {
	if len(os.Args) != 4 || os.Args[1] != "-nbB" {
		fmt.Fprintln(os.Stderr, "usage: htpasswd -nbB USER PASSWORD")
		os.Exit(2)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(os.Args[3]), 5)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s:%s\n", os.Args[2], hash)
}
