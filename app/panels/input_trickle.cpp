#include "panels/input_trickle.h"

#include <algorithm>

namespace lessons::app {

std::vector<InputEvent> InputTrickle::TakeFrame() {
    constexpr int kRelease = 0, kRepeat = 2;  // GLFW_RELEASE; GLFW_REPEAT changes nothing
    std::vector<InputEvent> frame;
    std::vector<int> changed;  // the keys pressed or released in this frame
    bool chars = false, pressed = false;
    while (!m_queue.empty()) {
        const InputEvent& e = m_queue.front();
        if (e.kind == InputEvent::Kind::kChar) {
            if (!changed.empty()) break;  // typed after a key: read after it, next frame
            chars = true;
        } else if (e.action != kRepeat) {
            if (chars) break;  // a key after typed characters: next frame
            if (std::find(changed.begin(), changed.end(), e.key) != changed.end()) break;
            // A release after a press: the pressed key is read with the keys held with it
            // (Ctrl let go right after A would make Ctrl+A an A).
            if (e.action == kRelease && pressed) break;
            pressed = pressed || e.action != kRelease;
            changed.push_back(e.key);
        }
        frame.push_back(e);
        m_queue.pop_front();
    }
    return frame;
}

}  // namespace lessons::app
