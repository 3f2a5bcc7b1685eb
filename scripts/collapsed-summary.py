"""What a profile's samples were in, from async-profiler's collapsed stacks.

Usage: python3 collapsed-summary.py STACKS.collapsed LOOP_FRAME
Prints the share of all samples whose stack holds LOOP_FRAME (the server's I/O loop: its Java code
and the JVM and C calls under it), the frames most samples ended in, overall and within the loop,
and the loop's frames by inclusive share. Critical FFM downcalls (recv, send) are sampled without
their Java caller, so they show as stacks of their own.
"""
import collections
import sys


def main(path, loop_frame, top=15):
    total = in_loop = 0
    leaves, loop_leaves, loop_inclusive = collections.Counter(), collections.Counter(), collections.Counter()
    with open(path) as f:
        for line in f:
            stack, count = line.rsplit(" ", 1)
            count = int(count)
            frames = stack.split(";")
            total += count
            leaves[frames[-1]] += count
            if loop_frame in frames:
                in_loop += count
                loop_leaves[frames[-1]] += count
                for frame in set(frames):
                    loop_inclusive[frame] += count
    if total == 0:
        sys.exit("no samples in " + path)
    print("samples: %d; in the I/O loop (%s): %.1f%%" % (total, loop_frame, 100.0 * in_loop / total))
    for title, counter in (("frames the samples ended in", leaves), ("within the loop, frames the samples ended in", loop_leaves),
                           ("within the loop, inclusive", loop_inclusive)):
        print("-- %s (share of all samples)" % title)
        for frame, count in counter.most_common(top):
            print("%6.2f%%  %s" % (100.0 * count / total, frame[:140]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
