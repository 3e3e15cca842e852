// The code view's machine-code listing without drawing: which tab and kernel it shows, the
// listing split into lines with each line's instruction class (computed once per choice), and
// the kernels' names as the view shows them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "machine_code.h"

namespace lessons::app {

struct MachineView {
    int tab = 0;          // 0 source, 1 PTX, 2 SASS: the tab open
    int select_tab = -1;  // >= 0: open this tab at the next frame
    // The listing shown: for (lesson number, tab, kernel) as computed.
    int lesson = -1;
    int for_tab = -1;
    int kernel = -1;  // index into `functions`; -1: every kernel
    std::vector<MachineFunction> functions;
    std::vector<std::string_view> lines;
    std::vector<int> line_class;        // index into InstructionClasses(), -1: none
    std::map<std::string, int> counts;  // by class name
    std::string
        reused_from;  // the label of the lesson whose kernel this step launches; "": its own
    std::string ncu;  // the ncu command line of the page's parameters
    double copied_at = -100;  // when Copy was pressed (ImGui's clock)
    // A class's chip was pressed: the listing shows its next instruction (this line, from 0;
    // -1: none), scrolled into view at the next frame while `jump_pending`.
    int jump_line = -1;
    bool jump_pending = false;
    // Where the listing carries line information (ListMachineCode): each listed line's source
    // line in the step's file (from 1; 0: none, or another file's), the source line linked (0:
    // none; a click on either side sets it), and which side scrolls to it at the next frame.
    std::vector<int> line_source;
    std::vector<std::string> source_lines;  // the file the listing was compiled from
    bool has_line_info = false;
    int linked = 0;
    bool scroll_listing = false, scroll_source = false;
    int scroll_to_source = 0;  // the source side opens at this line (its first with code)
};

// The names of a kernel as the combo shows it: without "void", namespaces and parameters.
std::string ShortKernelName(const std::string& demangled);

// The kernel shown first: the step's first kernel as written, i.e. the template instance with
// every toggle at its first value (index 0: the lesson as written, as the toggle tables are
// declared) and, where the row's exercise names an instance (`instance`: "constexpr int BM =
// 256, BN = 128, ..."), first the one whose template arguments hold the most of its values: a
// tile step's default tile, whatever order the listing has; -1 (every kernel) when no kernel
// has one of `names`.
int DefaultKernel(const std::vector<MachineFunction>& functions,
                  const std::vector<std::string>& names, const std::string& instance = {});

// Fills the view's lines, their classes and the counts per class from `code` (the kernel
// chosen in `m.kernel`, or all of it). Where the listing carries line information, each line's
// source line in `source_path` (the step's file, "kernels/gemm/39_double_buffering.cu"), and
// the directives that carried it are not listed: PTX compiled with -lineinfo (".loc FILE LINE
// COL", with ", inlined_at FILE LINE COL" for inlined code; its files named at the end by
// '.file N "path"'), SASS disassembled with line information (nvdisasm -g: '//## File "path",
// line N', with ' inlined at "path", line M'). A path matches when it is `source_path` or ends
// in "/" + it (the build's absolute path).
void ListMachineCode(MachineView& m, std::string_view code, Isa isa,
                     std::string_view source_path = {});

}  // namespace lessons::app
