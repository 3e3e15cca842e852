// ImGui 1.86 reads each key's state once a frame (io.KeysDown): a press and its release that
// reach the program between two frames (a quick tap, a script's xdotool, a slow frame) are never
// seen, and a key between typed characters (Return between two lines) is read after all of
// them. GLFW's key and character events are queued here and handed to ImGui's backend a frame at
// a time, in order: a frame takes events until one would change a key already changed in it, a
// key would be released after one was pressed (Ctrl released right after A: the frame sees
// Ctrl+A), or a character would follow a key (or a key a character). The character a key types
// is the exception: it comes in the frame of the key's press, so that the key is down for one
// frame, not two (ImGui counts a key down in two frames further apart than its key repeat delay,
// 0.275 s, as pressed twice: a loaded machine's frames are). ImGui 1.87 and later queue
// input themselves (io.AddKeyEvent), but their queue reads a key released in the same frame
// as another is pressed (Ctrl let go right after A: an A, as xdotool key ctrl+a sends it), and
// their GLFW backend takes the modifiers from GLFW's state when it is called rather than from
// the event: main.cpp queues the keys here with every version, and with 1.87 and later hands
// each frame's share to ImGui by FeedImGui.
#pragma once

#include <imgui.h>

#include <deque>
#include <vector>

namespace lessons::app {

struct InputEvent {
    enum class Kind { kKey, kChar };
    Kind kind = Kind::kKey;
    int key = 0, scancode = 0, action = 0, mods = 0;  // a key (GLFW's codes; action 0 release)
    unsigned codepoint = 0;                           // a character
};

class InputTrickle {
public:
    void Push(const InputEvent& e) { m_queue.push_back(e); }
    // The events this frame takes (removed from the queue), in the order they came.
    std::vector<InputEvent> TakeFrame();
    // Whether events wait for the next frame (which should then come without waiting).
    bool Pending() const { return !m_queue.empty(); }

private:
    std::deque<InputEvent> m_queue;
};

#if IMGUI_VERSION_NUM >= 18700
// Gives `events` (a frame's share, TakeFrame) to the current ImGui context: each key with the
// modifiers held at that event (GLFW's mods, the event's own key where it is a modifier), each
// character as typed. Keys GLFW reports that ImGui has no name for are left out.
void FeedImGui(const std::vector<InputEvent>& events);
// GLFW's key code as ImGui names it (ImGuiKey_None: no name).
ImGuiKey ImGuiKeyOfGlfw(int key);
#endif

}  // namespace lessons::app
