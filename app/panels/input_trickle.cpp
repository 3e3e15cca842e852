#include "panels/input_trickle.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace lessons::app {

std::vector<InputEvent> InputTrickle::TakeFrame() {
    constexpr int kRelease = 0, kRepeat = 2;  // GLFW_RELEASE; GLFW_REPEAT changes nothing
    std::vector<InputEvent> frame;
    std::vector<int> changed;  // the keys pressed or released in this frame
    bool chars = false, pressed = false;
    // The last event taken was a key's press: a character that comes next is what that key
    // typed (GLFW sends it right after the press) and is read in the same frame.
    bool after_press = false;
    while (!m_queue.empty()) {
        const InputEvent& e = m_queue.front();
        if (e.kind == InputEvent::Kind::kChar) {
            // Typed after a key: read after it, next frame; unless it is that key's own
            // character. In a frame of its own, it kept its key down for two frames, and where a
            // frame lasted longer than ImGui's key repeat delay (a loaded machine), ImGui saw a
            // repeat in the second: Space on a focused section header opened it and closed it.
            if (!changed.empty() && !after_press) break;
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
        if (e.kind == InputEvent::Kind::kKey && e.action != kRepeat)
            after_press = e.action != kRelease;
        frame.push_back(e);
        m_queue.pop_front();
    }
    return frame;
}

#if IMGUI_VERSION_NUM >= 18700
ImGuiKey ImGuiKeyOfGlfw(int key) {
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return ImGuiKey(ImGuiKey_A + (key - GLFW_KEY_A));
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return ImGuiKey(ImGuiKey_0 + (key - GLFW_KEY_0));
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12)
        return ImGuiKey(ImGuiKey_F1 + (key - GLFW_KEY_F1));
    if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9)
        return ImGuiKey(ImGuiKey_Keypad0 + (key - GLFW_KEY_KP_0));
    switch (key) {
        case GLFW_KEY_TAB:
            return ImGuiKey_Tab;
        case GLFW_KEY_LEFT:
            return ImGuiKey_LeftArrow;
        case GLFW_KEY_RIGHT:
            return ImGuiKey_RightArrow;
        case GLFW_KEY_UP:
            return ImGuiKey_UpArrow;
        case GLFW_KEY_DOWN:
            return ImGuiKey_DownArrow;
        case GLFW_KEY_PAGE_UP:
            return ImGuiKey_PageUp;
        case GLFW_KEY_PAGE_DOWN:
            return ImGuiKey_PageDown;
        case GLFW_KEY_HOME:
            return ImGuiKey_Home;
        case GLFW_KEY_END:
            return ImGuiKey_End;
        case GLFW_KEY_INSERT:
            return ImGuiKey_Insert;
        case GLFW_KEY_DELETE:
            return ImGuiKey_Delete;
        case GLFW_KEY_BACKSPACE:
            return ImGuiKey_Backspace;
        case GLFW_KEY_SPACE:
            return ImGuiKey_Space;
        case GLFW_KEY_ENTER:
            return ImGuiKey_Enter;
        case GLFW_KEY_ESCAPE:
            return ImGuiKey_Escape;
        case GLFW_KEY_APOSTROPHE:
            return ImGuiKey_Apostrophe;
        case GLFW_KEY_COMMA:
            return ImGuiKey_Comma;
        case GLFW_KEY_MINUS:
            return ImGuiKey_Minus;
        case GLFW_KEY_PERIOD:
            return ImGuiKey_Period;
        case GLFW_KEY_SLASH:
            return ImGuiKey_Slash;
        case GLFW_KEY_SEMICOLON:
            return ImGuiKey_Semicolon;
        case GLFW_KEY_EQUAL:
            return ImGuiKey_Equal;
        case GLFW_KEY_LEFT_BRACKET:
            return ImGuiKey_LeftBracket;
        case GLFW_KEY_BACKSLASH:
            return ImGuiKey_Backslash;
        case GLFW_KEY_RIGHT_BRACKET:
            return ImGuiKey_RightBracket;
        case GLFW_KEY_GRAVE_ACCENT:
            return ImGuiKey_GraveAccent;
        case GLFW_KEY_CAPS_LOCK:
            return ImGuiKey_CapsLock;
        case GLFW_KEY_SCROLL_LOCK:
            return ImGuiKey_ScrollLock;
        case GLFW_KEY_NUM_LOCK:
            return ImGuiKey_NumLock;
        case GLFW_KEY_PRINT_SCREEN:
            return ImGuiKey_PrintScreen;
        case GLFW_KEY_PAUSE:
            return ImGuiKey_Pause;
        case GLFW_KEY_KP_DECIMAL:
            return ImGuiKey_KeypadDecimal;
        case GLFW_KEY_KP_DIVIDE:
            return ImGuiKey_KeypadDivide;
        case GLFW_KEY_KP_MULTIPLY:
            return ImGuiKey_KeypadMultiply;
        case GLFW_KEY_KP_SUBTRACT:
            return ImGuiKey_KeypadSubtract;
        case GLFW_KEY_KP_ADD:
            return ImGuiKey_KeypadAdd;
        case GLFW_KEY_KP_ENTER:
            return ImGuiKey_KeypadEnter;
        case GLFW_KEY_KP_EQUAL:
            return ImGuiKey_KeypadEqual;
        case GLFW_KEY_LEFT_SHIFT:
            return ImGuiKey_LeftShift;
        case GLFW_KEY_LEFT_CONTROL:
            return ImGuiKey_LeftCtrl;
        case GLFW_KEY_LEFT_ALT:
            return ImGuiKey_LeftAlt;
        case GLFW_KEY_LEFT_SUPER:
            return ImGuiKey_LeftSuper;
        case GLFW_KEY_RIGHT_SHIFT:
            return ImGuiKey_RightShift;
        case GLFW_KEY_RIGHT_CONTROL:
            return ImGuiKey_RightCtrl;
        case GLFW_KEY_RIGHT_ALT:
            return ImGuiKey_RightAlt;
        case GLFW_KEY_RIGHT_SUPER:
            return ImGuiKey_RightSuper;
        case GLFW_KEY_MENU:
            return ImGuiKey_Menu;
        default:
            return ImGuiKey_None;
    }
}

void FeedImGui(const std::vector<InputEvent>& events) {
    ImGuiIO& io = ImGui::GetIO();
    for (const InputEvent& e : events) {
        if (e.kind == InputEvent::Kind::kChar) {
            io.AddInputCharacter(e.codepoint);
            continue;
        }
        if (e.action == GLFW_REPEAT) continue;  // ImGui repeats a held key itself
        const bool down = e.action == GLFW_PRESS;
        // GLFW's mods are those held before this event; a modifier's own event changes its.
        auto held = [&](int mod, int left, int right) {
            return e.key == left || e.key == right ? down : (e.mods & mod) != 0;
        };
        io.AddKeyEvent(ImGuiMod_Ctrl,
                       held(GLFW_MOD_CONTROL, GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL));
        io.AddKeyEvent(ImGuiMod_Shift,
                       held(GLFW_MOD_SHIFT, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT));
        io.AddKeyEvent(ImGuiMod_Alt, held(GLFW_MOD_ALT, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT));
        io.AddKeyEvent(ImGuiMod_Super,
                       held(GLFW_MOD_SUPER, GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER));
        const ImGuiKey key = ImGuiKeyOfGlfw(e.key);
        if (key != ImGuiKey_None) io.AddKeyEvent(key, down);
    }
}
#endif

}  // namespace lessons::app
