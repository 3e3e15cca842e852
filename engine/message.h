// A sentence the engine or a chapter says to the student (why GPU lessons cannot run here, why
// a result is wrong): a stable id, the values it names, and its English. A front end renders
// it from the form its id names, in the student's language; where it knows no form (an older
// worker, a message without an id) it shows the English. No front end matches English text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lessons {

// The words of one message in both languages; "{1}", "{2}"... stand for its arguments (in any
// order, in either language).
struct MessageForm {
    std::string_view id;  // "device.no-gpu": stable, never shown
    std::string_view en;
    std::string_view zh;
};

struct Message {
    std::string id;  // empty: free text (a library's or a compiler's words), shown as it is
    std::vector<std::string> args;
    std::string text;  // the English

    // `form` filled with `args`.
    static Message Of(const MessageForm& form, std::vector<std::string> args = {});
    // Words with no form: shown as they are in every language.
    static Message Plain(std::string text);
    bool empty() const { return text.empty(); }
    bool operator==(const Message& o) const {
        return id == o.id && args == o.args && text == o.text;
    }
};

// `form` with "{N}" replaced by args[N - 1] ("{N}" stays where there is no such argument).
std::string FillForm(std::string_view form, const std::vector<std::string>& args);

// Forms a chapter declares (Chapter::messages), known to every front end that links the
// catalogue; Registry::AddChapter registers them.
void RegisterMessageForms(const std::vector<MessageForm>& forms);
// The form of `id`: the engine's own or a registered one; null when there is none.
const MessageForm* FindMessageForm(std::string_view id);
// The message in `language` ("en", "zh"): its form's words filled with its arguments; its
// English when it has no form, or a form of other arguments than it carries.
std::string Render(const Message& message, std::string_view language);

// The engine's own messages.
inline constexpr MessageForm kNoCudaInBuild{
    "build.no-cuda", "this build has no CUDA support (no CUDA compiler at configure time)",
    "此构建不含 CUDA 支持（配置时没有 CUDA 编译器）"};
inline constexpr MessageForm kNoCudaForLesson{"lesson.no-cuda", "this build has no CUDA support",
                                              "此构建不含 CUDA 支持"};
inline constexpr MessageForm kNoRunner{"lesson.no-runner", "this build has no runner for it",
                                       "此构建没有它的运行器"};
inline constexpr MessageForm kNoGpuFound{"device.no-gpu", "no NVIDIA GPU found",
                                         "未找到 NVIDIA GPU"};
inline constexpr MessageForm kNoGpuFoundError{"device.no-gpu-error", "no NVIDIA GPU found ({1})",
                                              "未找到 NVIDIA GPU（{1}）"};
inline constexpr MessageForm kNoDriver{"device.no-driver",
                                       "no NVIDIA driver, or one too old for CUDA 13 ({1})",
                                       "没有 NVIDIA 驱动，或驱动版本过旧，不支持 CUDA 13（{1}）"};
inline constexpr MessageForm kCudaCannotStart{
    "device.cuda-cannot-start", "CUDA cannot start: {1} ({2})", "CUDA 无法启动：{1}（{2}）"};
inline constexpr MessageForm kTooOld{"device.too-old",
                                     "{1} has compute capability {2}; CUDA Lessons needs 7.5 or "
                                     "newer",
                                     "{1} 的计算能力为 {2}；CUDA Lessons 需要 7.5 或更高"};
inline constexpr MessageForm kNoProperties{
    "device.no-properties", "cudaGetDeviceProperties failed for device {1} ({2})",
    "无法读取设备 {1} 的属性（cudaGetDeviceProperties 失败：{2}）"};

}  // namespace lessons
