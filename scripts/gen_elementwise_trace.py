#!/usr/bin/env python3
"""Write a scaled synthetic Accel-Sim trace of an elementwise kernel (c[i] = a[i] + b[i]).

The instruction sequence per warp follows the real Ampere `vectorAdd` trace in
../shared/traces/vecadd_a100_bv80 (tracer version 5, 17 instructions per warp: two
coalesced 4 B loads, one 4 B store); only the grid is larger, so a Volta preset sees
many CTAs per SM. With --iters K each thread handles K elements a grid apart (a
grid-stride loop: the load/add/store body K times, with its loop-control instructions).
Used by `make bench` (docs/performance.md).

  gen_elementwise_trace.py --ctas 3520 --out build/traces/elementwise-3520
  gen_elementwise_trace.py --ctas 3520 --iters 8 --out build/traces/elementwise-3520x8
"""
import argparse
import os
import sys

BLOCK_THREADS = 256
WARP = 32
A_BASE = 0x7FB0FC400000  # the buffers' spacing is free; only their alignment matters


def kernel_header(ctas: int) -> str:
    return "\n".join([
        "-kernel name = _Z9vectorAddPKfS0_Pfi",
        "-kernel id = 1",
        f"-grid dim = ({ctas},1,1)",
        f"-block dim = ({BLOCK_THREADS},1,1)",
        "-shmem = 0",
        "-nregs = 12",
        "-binary version = 70",
        "-cuda stream id = 0",
        "-shmem base_addr = 0x00007fb139000000",
        "-local mem base_addr = 0x00007fb137000000",
        "-nvbit version = 1.7",
        "-accelsim tracer version = 5",
        "-enable lineinfo = 0",
        "",
        "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
        "mem_width [adrrescompress?] [mem_addresses] immediate",
        "", ""])


def warp_body(a: int, b: int, c: int, iters: int = 1, stride: int = 0) -> str:
    if iters > 1:
        return loop_body(a, b, c, iters, stride)
    return (
        "insts = 17\n"
        "0000 ffffffff 1 R1 MOV 0 0 0 \n"
        "0010 ffffffff 1 R6 S2R 0 0 0 \n"
        "0020 ffffffff 1 R3 S2R 0 0 0 \n"
        "0030 ffffffff 1 R6 IMAD 2 R6 R3 0 0 \n"
        "0040 ffffffff 0 ISETP.GE.AND 1 R6 0 0 \n"
        "0050 00000000 0 EXIT 0 0 0 \n"
        "0060 ffffffff 1 R7 HFMA2.MMA 2 R255 R255 0 0 \n"
        "0070 ffffffff 0 ULDC.64 0 0 0 \n"
        "0080 ffffffff 1 R4 IMAD.WIDE 2 R6 R7 0 0 \n"
        "0090 ffffffff 1 R2 IMAD.WIDE 2 R6 R7 0 0 \n"
        f"00a0 ffffffff 1 R4 LDG.E 1 R4 4 1 {b:#x} 4 0 \n"
        f"00b0 ffffffff 1 R3 LDG.E 1 R2 4 1 {a:#x} 4 0 \n"
        "00c0 ffffffff 1 R6 IMAD.WIDE 2 R6 R7 0 0 \n"
        "00d0 ffffffff 1 R0 FADD 2 R4 R3 0 0 \n"
        "00e0 ffffffff 1 R9 FADD 2 R255 R0 0 0 \n"
        f"00f0 ffffffff 0 STG.E 2 R6 R9 4 1 {c:#x} 4 0 \n"
        "0100 ffffffff 0 EXIT 0 0 0 \n")


def loop_body(a: int, b: int, c: int, iters: int, stride: int) -> str:
    """The grid-stride form: setup, then per element two loads, the add, the store and the
    loop test (ISETP + BRA), each element `stride` bytes after the previous one."""
    lines = ["0000 ffffffff 1 R1 MOV 0 0 0 ",
             "0010 ffffffff 1 R6 S2R 0 0 0 ",
             "0020 ffffffff 1 R3 S2R 0 0 0 ",
             "0030 ffffffff 1 R6 IMAD 2 R6 R3 0 0 ",
             "0040 ffffffff 1 R7 HFMA2.MMA 2 R255 R255 0 0 ",
             "0050 ffffffff 0 ULDC.64 0 0 0 "]
    for i in range(iters):
        o = i * stride
        lines += ["0060 ffffffff 1 R4 IMAD.WIDE 2 R6 R7 0 0 ",
                  "0070 ffffffff 1 R2 IMAD.WIDE 2 R6 R7 0 0 ",
                  f"0080 ffffffff 1 R4 LDG.E 1 R4 4 1 {b + o:#x} 4 0 ",
                  f"0090 ffffffff 1 R3 LDG.E 1 R2 4 1 {a + o:#x} 4 0 ",
                  "00a0 ffffffff 1 R8 IMAD.WIDE 2 R6 R7 0 0 ",
                  "00b0 ffffffff 1 R0 FADD 2 R4 R3 0 0 ",
                  f"00c0 ffffffff 0 STG.E 2 R8 R0 4 1 {c + o:#x} 4 0 ",
                  "00d0 ffffffff 1 R6 IADD3 2 R6 R255 0 0 ",
                  "00e0 ffffffff 0 ISETP.GE.AND 1 R6 0 0 ",
                  "00f0 ffffffff 0 BRA 0 0 0 "]
    lines.append("0100 ffffffff 0 EXIT 0 0 0 ")
    return f"insts = {len(lines)}\n" + "".join(line + "\n" for line in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ctas", type=int, default=3520, help="grid size in CTAs of 256 threads (default 3520)")
    ap.add_argument("--iters", type=int, default=1, help="elements per thread, a grid apart (default 1)")
    ap.add_argument("--out", required=True, help="output folder (kernel-1.traceg, kernelslist.g)")
    args = ap.parse_args()
    if args.iters < 1:
        print(f"gen_elementwise_trace.py: --iters: value {args.iters} not allowed (allowed: >= 1)", file=sys.stderr)
        return 2
    if args.ctas < 1:
        print(f"gen_elementwise_trace.py: --ctas: value {args.ctas} not allowed (allowed: >= 1)", file=sys.stderr)
        return 2
    grid_threads = args.ctas * BLOCK_THREADS
    n = grid_threads * args.iters
    bytes_per_array = n * 4
    # 4 KiB-aligned buffers placed back to back, as cudaMalloc would
    span = (bytes_per_array + 0xFFF) & ~0xFFF
    a_base, b_base, c_base = A_BASE, A_BASE + span, A_BASE + 2 * span
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "kernelslist.g"), "w") as f:
        f.write(f"MemcpyHtoD,{a_base:#018x},{bytes_per_array}\n")
        f.write(f"MemcpyHtoD,{b_base:#018x},{bytes_per_array}\n")
        f.write("kernel-1.traceg\n")
    with open(os.path.join(args.out, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header(args.ctas))
        for cta in range(args.ctas):
            f.write(f"\n#BEGIN_TB\n\nthread block = {cta},0,0\n")
            for w in range(BLOCK_THREADS // WARP):
                off = (cta * BLOCK_THREADS + w * WARP) * 4
                f.write(f"\nwarp = {w}\n")
                f.write(warp_body(a_base + off, b_base + off, c_base + off, args.iters, grid_threads * 4))
            f.write("\n#END_TB\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
