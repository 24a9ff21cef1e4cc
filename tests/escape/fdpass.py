# fdpass.py send PATH DIR: serve one descriptor of DIR on the unix socket PATH.
# fdpass.py recv PATH REL: receive it, list it, and read REL under it.
import os, socket, sys
mode, path, arg = sys.argv[1:4]
if mode == "send":
    try: os.unlink(path)
    except OSError: pass
    s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1)
    open(path + ".ready", "w").close()
    fd = os.open(arg, os.O_RDONLY | os.O_DIRECTORY)
    c, _ = s.accept(); socket.send_fds(c, [b"x"], [fd]); c.close()
else:
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    _, fds, _, _ = socket.recv_fds(s, 10, 1)
    try: print("LIST", " ".join(sorted(os.listdir(fds[0]))))
    except OSError as e: print("LIST-ERR", e.errno)
    try: print("READ", os.read(os.open(arg, os.O_RDONLY, dir_fd=fds[0]), 100).decode().strip())
    except OSError as e: print("READ-ERR", e.errno)
