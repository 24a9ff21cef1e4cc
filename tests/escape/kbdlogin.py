#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# kbdlogin.py PASSWORD SSH-ARGS...: the real ssh client on a pty, answering
# its keyboard-interactive password prompt once; prints what the session
# printed, exits with ssh's status.
import os, pty, sys, time

password, args = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("ssh", ["ssh"] + args)
out, answered, deadline = b"", False, time.time() + 60
while time.time() < deadline:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
    if not answered and b"assword" in out:
        os.write(fd, password.encode() + b"\n")
        answered, out = True, b""
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
sys.exit(os.waitstatus_to_exitcode(status) if answered else 99)
