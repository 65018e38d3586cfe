#!/usr/bin/env python3
"""Time from saving the bundled Village Life file to the server-sent event of `tilekit serve`
(and to the page's state fetched after it), 8 saves that each rename one tile.

Usage: tools/bench/serve-latency.py [path/to/tilekit]   (default: target/debug/tilekit)
"""
import socket, time, sys, subprocess, re, shutil, os, json, statistics, tempfile
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "debug", "tilekit")
scratch = tempfile.mkdtemp(); d = os.path.join(scratch, "defs"); os.makedirs(d)
for n in ["base.toml","festival.toml","village-life.toml"]:
    shutil.copy(os.path.join(root, "definitions", n), d)
p = subprocess.Popen([exe,"serve",d,"--port","0"], stdout=subprocess.PIPE, text=True)
line = p.stdout.readline(); print(line.strip())
host, port = re.search(r"http://([\d.]+):(\d+)/", line).groups()
s = socket.create_connection((host,int(port)))
s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
s.settimeout(5)
def read_event():
    buf=b""
    while b"data:" not in buf or not buf.endswith(b"\n\n"):
        buf += s.recv(4096)
    return buf
read_event()
vl = d+"/village-life.toml"; text = open(vl).read()
times=[]; server=[]
for i in range(8):
    # one tile's name changes: that tile is drawn again, the rest come from the cache
    at = text.index("[[tile]]"); new = text[:at] + text[at:].replace('name = "', f'name = "v{i} ', 1)
    t0=time.perf_counter(); open(vl,"w").write(new)
    ev=read_event(); t1=time.perf_counter()
    # and the page's follow-up: the state, then the one changed picture
    c=socket.create_connection((host,int(port))); c.sendall(b"GET /api/state HTTP/1.0\r\n\r\n"); st=b""
    while True:
        b=c.recv(65536)
        if not b: break
        st+=b
    t2=time.perf_counter()
    times.append(((t1-t0)*1000,(t2-t0)*1000)); server.append(json.loads(ev.split(b"data: ")[-1])["ms"])
    time.sleep(0.3)
p.kill()
shutil.rmtree(scratch, ignore_errors=True)
print("save→event ms:", [round(a) for a,_ in times], "median", round(statistics.median(a for a,_ in times)))
print("save→state fetched ms:", [round(b) for _,b in times], "median", round(statistics.median(b for _,b in times)))
print("server-side (event→applied) ms:", server)
