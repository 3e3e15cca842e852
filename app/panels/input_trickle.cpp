#include "panels/input_trickle.h"

#include <algorithm>

namespace lessons::app {

std::vector<InputEvent> InputTrickle::TakeFrame() {
    constexpr int kRepeat = 2;  // GLFW_REPEAT: no change of the key's state
    std::vector<InputEvent> frame;
    std::vector<int> changed;  // the keys pressed or released in this frame
    bool chars = false;
    while (!m_queue.empty()) {
        const InputEvent& e = m_queue.front();
        if (e.kind == InputEvent::Kind::kChar) {
            if (!changed.empty()) break;  // typed after a key: read after it, next frame
            chars = true;
        } else if (e.action != kRepeat) {
            if (chars) break;  // a key after typed characters: next frame
            if (std::find(changed.begin(), changed.end(), e.key) != changed.end()) break;
            changed.push_back(e.key);
        }
        frame.push_back(e);
        m_queue.pop_front();
    }
    return frame;
}

}  // namespace lessons::app
