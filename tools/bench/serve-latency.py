#!/usr/bin/env python3
"""Time from saving the bundled Village Life file to the server-sent event of `tilekit serve`,
to the page's state fetched after it, and to the new pictures fetched (the tiles whose key
changed, as the page asks for them), 8 saves that each rename one tile.

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
def get(path):
    c=socket.create_connection((host,int(port))); c.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode()); out=b""
    while True:
        b=c.recv(65536)
        if not b: break
        out+=b
    return out
keys={t["id"]:t["key"] for t in json.loads(get("/api/state").split(b"\r\n\r\n",1)[1])["tiles"]}
redrawn=[]
vl = d+"/village-life.toml"; text = open(vl).read()
times=[]; server=[]
for i in range(8):
    # one tile's name changes: that tile is drawn again, the rest come from the cache
    at = text.index("[[tile]]"); new = text[:at] + text[at:].replace('name = "', f'name = "v{i} ', 1)
    t0=time.perf_counter(); open(vl,"w").write(new)
    ev=read_event(); t1=time.perf_counter()
    # and the page's follow-up: the state, then the one changed picture
    st=get("/api/state"); t2=time.perf_counter()
    tiles=json.loads(st.split(b"\r\n\r\n",1)[1])["tiles"]
    changed=[t for t in tiles if keys.get(t["id"]) != t["key"]]
    for t in changed:
        png=get(f"/tile/{t['id']}.png?v={t['key']}")
        assert png.split(b"\r\n\r\n",1)[1][1:4]==b"PNG", png[:200]
        keys[t["id"]]=t["key"]
    t3=time.perf_counter()
    times.append(((t1-t0)*1000,(t2-t0)*1000,(t3-t0)*1000)); server.append(json.loads(ev.split(b"data: ")[-1])["ms"])
    redrawn.append(len(changed))
    time.sleep(0.3)
p.kill()
shutil.rmtree(scratch, ignore_errors=True)
for name, k in [("save→event", 0), ("save→state fetched", 1), ("save→new pictures fetched", 2)]:
    print(f"{name} ms:", [round(t[k]) for t in times], "median", round(statistics.median(t[k] for t in times)))
print("pictures fetched per save:", redrawn)
print("server-side (event→applied) ms:", server)
