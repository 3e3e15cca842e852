#!/usr/bin/env python3
"""Puts nvdisasm's line information into cuobjdump's SASS listing (scripts/record-sass.sh).

    sass-line-info.py CUOBJDUMP_LISTING NVDISASM_LISTING   > merged listing
    sass-line-info.py --self-test

The app reads a SASS listing in cuobjdump -sass's layout ("Function : <name>" before each
function: lessons/machine_code.cpp), and links a source line to its instructions by the
"//## File "<path>", line N" lines that nvdisasm -g (or -gi: "... inlined at "<path>", line M")
writes before them (app/text/code_listing.cpp). nvdisasm's own layout (ELF sections) is not
cuobjdump's, so the listing stays cuobjdump's, and each of nvdisasm's "//## File" lines is put
before the instruction at the same offset of the same function (both number a function's
instructions from /*0000*/). An instruction that nvdisasm did not list, or a function it does
not name, keeps no line: never a line guessed. Without any "//## File" line (an object built
without -lineinfo), the cuobjdump listing comes out unchanged.
"""
import re
import sys

OFFSET = re.compile(r"/\*([0-9a-fA-F]{4,})\*/")
# nvdisasm: ".section .text.<name>,..." or the label ".text.<name>:"; cuobjdump: "Function : <name>".
NV_FUNCTION = re.compile(r"^\s*(?:\.section\s+\.text\.([^,\s]+)|\.text\.([^:\s]+):)")
CU_FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
FILE_LINE = re.compile(r"^\s*//## File ")


def line_info(nvdisasm_text):
    """{(function, offset): "//## File ..." line} for the instructions nvdisasm gave a line."""
    found, function, pending = {}, None, None
    for line in nvdisasm_text.splitlines():
        m = NV_FUNCTION.match(line)
        if m:
            function, pending = m.group(1) or m.group(2), None
            continue
        if FILE_LINE.match(line):
            pending = "\t" + line.strip()
            continue
        m = OFFSET.search(line)
        if m and function and pending:
            found[(function, int(m.group(1), 16))] = pending
            pending = None
    return found


def merge(cuobjdump_text, nvdisasm_text):
    found = line_info(nvdisasm_text)
    if not found:
        return cuobjdump_text
    out, function, last = [], None, None
    for line in cuobjdump_text.splitlines(keepends=True):
        m = CU_FUNCTION.match(line)
        if m:
            function, last = m.group(1), None
        else:
            m = OFFSET.search(line)
            # Only an instruction's line ("/*0010*/  LDG ..."), not a bare encoding's.
            if m and function and line.lstrip().startswith("/*" + m.group(1)):
                info = found.get((function, int(m.group(1), 16)))
                if info and info != last:
                    out.append(info + "\n")
                    last = info
        out.append(line)
    return "".join(out)


def self_test():
    cu = ("\tcode for sm_90\n"
          "\t\tFunction : _Z4axpyfPKfPfi\n"
          "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
          "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
          "        /*0010*/                   S2R R0, SR_TID.X ;\n"
          "        /*0020*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
          "        /*0030*/                   EXIT ;\n"
          "\t\tFunction : _Z5otherv\n"
          "        /*0000*/                   EXIT ;\n")
    nv = ("\t.headerflags\t@\"EF_CUDA_SM90\"\n"
          "//--------------------- .text._Z4axpyfPKfPfi --------------------------\n"
          "\t.section\t.text._Z4axpyfPKfPfi,\"ax\",@progbits\n"
          "_Z4axpyfPKfPfi:\n"
          ".text._Z4axpyfPKfPfi:\n"
          "\t//## File \"/b/kernels/demo/axpy.cu\", line 7\n"
          "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
          "        /*0010*/                   S2R R0, SR_TID.X ;\n"
          "\t//## File \"/usr/include/h.h\", line 3 inlined at \"/b/kernels/demo/axpy.cu\", line 9\n"
          "        /*0020*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
          "\t//## File \"/b/kernels/demo/axpy.cu\", line 7\n"
          "        /*0030*/                   EXIT ;\n")
    got = merge(cu, nv).splitlines()
    want = ["\tcode for sm_90", "\t\tFunction : _Z4axpyfPKfPfi", "\t.headerflags\t@\"EF_CUDA_SM90\"",
            "\t//## File \"/b/kernels/demo/axpy.cu\", line 7",
            "        /*0000*/                   LDC R1, c[0x0][0x28] ;",
            "        /*0010*/                   S2R R0, SR_TID.X ;",
            "\t//## File \"/usr/include/h.h\", line 3 inlined at \"/b/kernels/demo/axpy.cu\", line 9",
            "        /*0020*/                   LDG.E R2, desc[UR4][R2.64] ;",
            "\t//## File \"/b/kernels/demo/axpy.cu\", line 7",
            "        /*0030*/                   EXIT ;",
            "\t\tFunction : _Z5otherv",
            "        /*0000*/                   EXIT ;"]
    assert got == want, "\n".join(got)
    assert merge(cu, nv.replace("//## File", "// File")) == cu  # no line information: unchanged
    print("sass-line-info: self-test passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    elif len(sys.argv) == 3:
        with open(sys.argv[1]) as a, open(sys.argv[2]) as b:
            sys.stdout.write(merge(a.read(), b.read()))
    else:
        sys.exit(__doc__)
