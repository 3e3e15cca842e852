// The code view's state beyond the source: which tab and kernel it shows, the machine-code
// listing split into lines with each line's instruction class (computed once per choice), and
// what the roofline page last drew (tests read it).
#pragma once

#include <map>
#include <string>
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
    std::string reused_from;  // the label of the lesson whose kernel this step launches; "": its own
    std::string ncu;                    // the ncu command line of the page's parameters
    double copied_at = -100;            // when Copy was pressed (ImGui's clock)
    // The roofline (roofline_page.cpp): points drawn last (tests read it), the chapter picked
    // for "Run this chapter's benchmark".
    int roof_points = 0;
    int bench_chapter = 0;
};

// The names of a kernel as the combo shows it: without "void", namespaces and parameters.
std::string ShortKernelName(const std::string& demangled);

}  // namespace lessons::app
