"""WebSocket masking in Python: websockets' pure-Python apply_mask, and its C apply_mask built
from the speedups.c that Debian's python3-websockets ships (Debian ships the source, not the
compiled module). Usage: python3 mask_python.py OUTDIR SIZE...
Prints "RESULT <impl> <size> <median ns>" (or "SKIP <impl> <reason>") and writes each output
to OUTDIR/<impl>-<size>.bin for the runner to check. Both return new bytes objects."""
import importlib.util
import os
import subprocess
import sys
import sysconfig
import tempfile
import time

import websockets
import websockets.utils

KEY = bytes([0x37, 0xFA, 0x21, 0x3D])


def payload(size):
    block = bytes(((i * 131 + 7) & 0xFF) for i in range(256))
    return block * (size // 256) + block[: size % 256]


def build_speedups():
    source = os.path.join(os.path.dirname(websockets.__file__), "speedups.c")
    if not os.path.exists(source):
        return None, "speedups.c is not in " + os.path.dirname(websockets.__file__)
    target = os.path.join(tempfile.mkdtemp(prefix="wsjava-speedups"), "speedups" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return None, "Python.h missing (Debian package python3-dev)"
    built = subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + include, source, "-o", target],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return None, "gcc failed: " + built.stderr.strip().splitlines()[-1]
    spec = importlib.util.spec_from_file_location("speedups", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.apply_mask, None


def time_it(name, function, outdir, size):
    data = payload(size)
    reps = max(5, min(2000, (32 << 20) // size))
    for _ in range(reps // 5 + 1):
        out = function(data, KEY)
    times = []
    for _ in range(reps):
        t = time.perf_counter_ns()
        out = function(data, KEY)
        times.append(time.perf_counter_ns() - t)
    times.sort()
    print("RESULT %s %d %d" % (name, size, times[len(times) // 2]), flush=True)
    with open(os.path.join(outdir, "%s-%d.bin" % (name, size)), "wb") as f:
        f.write(out)


def main(outdir, sizes):
    c_mask, why = build_speedups()
    for size in sizes:
        time_it("python-websockets-pure", websockets.utils.apply_mask, outdir, size)
        if c_mask is not None:
            time_it("python-websockets-c", c_mask, outdir, size)
    if c_mask is None:
        print("SKIP python-websockets-c " + why, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], [int(s) for s in sys.argv[2:]])
