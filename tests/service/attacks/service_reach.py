"""From inside the sandbox, reach the judging service: its API, Redis, PostgreSQL and SQLite file.

Every attempt that gets anywhere is collected; any success raises PWNED, so
the report would show it. Refusals (no route, no socket, no file) are quiet.
"""
import socket

TARGETS = {"api": @API_PORT@, "redis": @REDIS_PORT@, "postgresql": @PG_PORT@}
DATABASE_FILE = "@DB_FILE@"


def patchify(images, *sizes):
    reached = []
    for name, port in TARGETS.items():
        if not port:
            continue
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
                connection.sendall(b"GET /api/v1/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" if name == "api" else b"PING\r\n")
                reached.append(f"{name}: {connection.recv(64)!r}")
        except OSError:
            pass
    try:
        with open(DATABASE_FILE, "rb") as database:
            reached.append(f"database file: {database.read(16)!r}")
    except OSError:
        pass
    if reached:
        raise RuntimeError("PWNED " + "; ".join(reached))
    return images
