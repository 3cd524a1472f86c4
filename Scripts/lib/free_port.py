"""A free TCP port on 127.0.0.1 for a server the tests start, printed when run as a script.

A port from a bind to port 0 comes from the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range),
which outgoing connections draw from too: between the probe and the server's own bind (nginx starts seconds later,
after PostgreSQL and the instances), a connection of the load may take it, and the server fails with "Address
already in use". So the port is drawn below that range, where no outgoing connection takes one, and probed.
"""
import random
import socket


def free_port():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as text:
            ephemeral = int(text.read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    for _ in range(200):
        port = random.randrange(10000, ephemeral) if ephemeral > 11000 else 0
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise SystemExit("free_port: no free port on 127.0.0.1 below the ephemeral range")


if __name__ == "__main__":
    print(free_port())
