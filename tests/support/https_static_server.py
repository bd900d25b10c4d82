#!/usr/bin/env python3
"""Serves a directory over HTTPS on 127.0.0.1 with Python's standard library, for the release
install scenario (a Terraform network mirror). Writes the port it listens on to PORT_FILE once it
accepts connections, and serves until it is killed.

Usage: https_static_server.py DIRECTORY CERT_PEM KEY_PEM PORT_FILE
"""
import functools
import os
import http.server
import ssl
import sys


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    directory, cert, key, port_file = sys.argv[1:]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + ".tmp", "w", encoding="ascii") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
