#include "words/words.h"

#include <cctype>
#include <mutex>
#include <set>
#include <vector>

#include "message.h"
#include "params.h"

namespace lessons::app {

const char* Tr(std::string_view language, const Word& word) {
    return language == "zh" ? word.zh : word.en;
}

namespace {

// Sentences this program makes up as English text rather than from a Word: the controller's
// notices, the reasons it gives itself. "%s" in a phrase is kept as it is (a number, an id, a
// path), "%t" is itself looked up (a message inside a message). Nothing a chapter or the engine
// says is here: a chapter names its choices in Chinese in their ParamSpec (choice_labels_zh),
// and the engine's messages carry an id whose form has the Chinese (engine/message.h).
constexpr Word kPhrases[] = {
    {"no GPU here", "本机没有 GPU"},  // the test workers' error
    // The controller's notices.
    {"Cannot start the worker: %t. %t Lessons cannot run; texts, code and recorded results stay "
     "available.",
     "无法启动工作进程：%t。%t 课程无法运行；课文、代码和已录制的结果仍可查看。"},
    {"Cannot start the worker: %t. Lessons cannot run; texts, code and recorded results stay "
     "available.",
     "无法启动工作进程：%t。课程无法运行；课文、代码和已录制的结果仍可查看。"},
    {"Worker refused: %t. Lessons cannot run; texts, code and recorded results stay available.",
     "已拒绝工作进程：%t。课程无法运行；课文、代码和已录制的结果仍可查看。"},
    {"the worker speaks protocol %s, this program needs %s: rebuild cuda-lessons-cli next to it",
     "工作进程使用协议 %s，本程序需要 %s：请在旁边重新构建 cuda-lessons-cli"},
    {"the worker started but said nothing for %s s (no hello line): it is not cuda-lessons-cli "
     "serve, or it hangs",
     "工作进程启动后 %s 秒内没有任何输出（没有 hello 行）：它不是 cuda-lessons-cli "
     "serve，或者卡住了"},
    {"the worker program was not found (exit code 127)", "找不到工作进程程序（退出码 127）"},
    {"the worker program is not executable (exit code 126)", "工作进程程序不可执行（退出码 126）"},
    {"the worker could not be started", "无法启动工作进程"},
    {"waiting for the worker", "正在等待工作进程"},
    // A key whose action cannot happen here (words_student.h's, with the reason looked up).
    {"Run cannot run this lesson here: %t.", "无法在此运行本课：%t。"},
    {"No lesson of this chapter runs here: %t.", "本章没有可在此运行的课程：%t。"},
    {"This step has no block-size parameter to sweep.", "此步骤没有可扫描的线程块大小参数。"},
    {"no worker is running", "没有正在运行的工作进程"},
    {"The worker stopped (%t) while running %t. A new worker was started; every result so far is "
     "kept.",
     "工作进程在运行 %2$t 时停止了（%1$t）。已启动新的工作进程；此前的结果全部保留。"},
    {"The worker stopped (%t). A new worker was started; every result so far is kept.",
     "工作进程停止了（%t）。已启动新的工作进程；此前的结果全部保留。"},
    {"The worker stopped (%t) while running %t. It stopped %s times in a short while, so it is not "
     "restarted; use Restart worker in the status bar. Every result so far is kept.",
     "工作进程在运行 %2$t 时停止了（%1$t）。它在短时间内停止了 %3$s 次，因此不再自动重启；"
     "请使用状态栏中的“重启工作进程”。此前的结果全部保留。"},
    {"The worker stopped (%t). It stopped %s times in a short while, so it is not restarted; use "
     "Restart worker in the status bar. Every result so far is kept.",
     "工作进程停止了（%t）。它在短时间内停止了 %s 次，因此不再自动重启；"
     "请使用状态栏中的“重启工作进程”。此前的结果全部保留。"},
    {"Your kernel for lesson %s ran longer than the limit of %s s: the worker was stopped and a "
     "new one started; every result so far is kept.",
     "你为第 %s 课写的 kernel 运行超过了 %s 秒的限制：工作进程已停止并重新启动；此前的结果全部"
     "保留。"},
    {"your kernel for lesson %s", "你为第 %s 课写的 kernel"},
    {"tuning of lesson %s", "第 %s 课的调优"},
    {"compiling your kernel for lesson %s", "编译你为第 %s 课写的 kernel"},
    {"killed by signal %s", "被信号 %s 终止"},
    {"exit code 3: a CUDA error left the GPU context unusable",
     "退出码 3：CUDA 错误使 GPU 上下文无法再用"},
    {"exit code %s", "退出码 %s"},
    {"A result could not be read: %s", "无法读取一个结果：%s"},
    {"A message from the worker could not be read: %s", "无法读取工作进程的一条消息：%s"},
    {"%t (the worker will be restarted)", "%t（工作进程将被重启）"},
    {"The worker is %s: rebuild it (cmake --build build), or name another with --worker PATH.",
     "工作进程是 %s：请重新构建它（cmake --build build），或用 --worker PATH 指定另一个。"},
    {"The worker was named with --worker %s.", "工作进程由 --worker %s 指定。"},
    {"cuda-lessons-cli was looked for next to this program (%s) and on PATH; %s exists but is not "
     "executable (chmod +x it). Build it (cmake --build build) or install it beside cuda-lessons, "
     "or name it with --worker PATH.",
     "已在本程序旁（%s）和 PATH 中查找 cuda-lessons-cli；%s 存在但不可执行（请 chmod +x）。"
     "请构建它（cmake --build build）或把它安装在 cuda-lessons 旁边，或用 --worker PATH 指定。"},
    {"cuda-lessons-cli was looked for next to this program (%s) and on PATH. Build it (cmake "
     "--build build) or install it beside cuda-lessons, or name it with --worker PATH.",
     "已在本程序旁（%s）和 PATH 中查找 cuda-lessons-cli。请构建它（cmake --build build）"
     "或把它安装在 cuda-lessons 旁边，或用 --worker PATH 指定。"},
    // The GUI's own notices (exports, screenshots, settings, fonts, recordings).
    {"Exported %s results to %s", "已将 %s 个结果导出到 %s"},
    {"Could not write %s: %s", "无法写入 %s：%s"},
    {"Screenshot written to %s", "截图已写入 %s"},
    {"Screenshot failed: %s", "截图失败：%s"},
    {"Recorded results: %s", "已录制的结果：%s"},
    {"No results were recorded on %s; showing those recorded on %s (recorded on: %s)",
     "没有在 %s 上录制的结果；显示在 %s 上录制的结果（录制过的 GPU：%s）"},
    {"the settings file %s is not valid JSON; using defaults",
     "设置文件 %s 不是有效的 JSON；使用默认值"},
    {"the settings file %s has a bad value (%s); using defaults",
     "设置文件 %s 中有错误的值（%s）；使用默认值"},
    {"cannot write %s", "无法写入 %s"},
    {"cannot replace %s", "无法替换 %s"},
    {"%s is %s bytes, more than this program ever writes: ignored (it is rewritten at exit)",
     "%s 有 %s 字节，超过本程序会写入的大小：已忽略（退出时重写）"},
    {"%s is not a regular file: ignored", "%s 不是普通文件：已忽略"},
    {"%s has more than %s sections: ignored (it is rewritten at exit)",
     "%s 的节数超过 %s：已忽略（退出时重写）"},
    {"not saving %s: %s bytes in %s sections is more than expected",
     "不保存 %s：%s 字节、%s 个节，超出预期"},
    {"Some fonts are missing (%s): install fonts-dejavu-core and fonts-wqy-microhei. Using ImGui's "
     "default font where they are missing; Chinese text may not show.",
     "缺少部分字体（%s）：请安装 fonts-dejavu-core 和 fonts-wqy-microhei。缺少的字体用 ImGui "
     "的默认字体代替；中文可能无法显示。"},
};

// A format split into its literal pieces and its slots: literals.size() == slots.size() + 1.
struct Template {
    std::vector<std::string> literals;
    std::vector<int> slots;        // the argument each slot takes (positional "%2$s" -> 1)
    std::vector<bool> translated;  // "%t": looked up itself
};

Template Parse(std::string_view format) {
    Template t;
    t.literals.emplace_back();
    int next = 0;
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%') {
            t.literals.back() += format[i];
            continue;
        }
        if (i + 1 < format.size() && format[i + 1] == '%') {
            t.literals.back() += '%';
            ++i;
            continue;
        }
        size_t j = i + 1;
        int slot = next++;
        size_t digits = j;
        while (digits < format.size() && std::isdigit(static_cast<unsigned char>(format[digits])))
            ++digits;
        if (digits > j && digits < format.size() && format[digits] == '$') {
            slot = std::stoi(std::string(format.substr(j, digits - j))) - 1;
            j = digits + 1;
        }
        while (j < format.size() && !std::isalpha(static_cast<unsigned char>(format[j]))) ++j;
        while (j < format.size() && format[j] == 'l') ++j;  // %llu
        const bool translated = j < format.size() && format[j] == 't';
        t.slots.push_back(slot);
        t.translated.push_back(translated);
        t.literals.emplace_back();
        i = j;
    }
    return t;
}

// The text each slot of `t` holds in `text`, or false when `text` does not have its form.
bool Match(const Template& t, std::string_view text, std::vector<std::string>* captures) {
    if (text.substr(0, t.literals[0].size()) != t.literals[0]) return false;
    size_t at = t.literals[0].size();
    captures->assign(t.slots.size(), std::string());
    for (size_t k = 0; k < t.slots.size(); ++k) {
        const std::string& lit = t.literals[k + 1];
        const bool last = k + 1 == t.slots.size();
        size_t end;
        if (last) {
            if (text.size() < at + lit.size() || text.substr(text.size() - lit.size()) != lit)
                return false;
            end = text.size() - lit.size();
        } else {
            end = text.find(lit, at);
            if (lit.empty() || end == std::string_view::npos) return false;
        }
        if (end <= at) return false;  // every slot holds something
        (*captures)[static_cast<size_t>(t.slots[k])] = std::string(text.substr(at, end - at));
        at = end + lit.size();
    }
    return t.slots.empty() ? at == text.size() : true;
}

std::mutex g_misses_mutex;
std::set<std::string> g_misses;

std::string Translate(const std::string& english, bool* found);

std::string Fill(const Template& zh, const std::vector<std::string>& captures, const Template& en,
                 bool* found) {
    std::string out = zh.literals[0];
    for (size_t k = 0; k < zh.slots.size(); ++k) {
        const size_t slot = static_cast<size_t>(zh.slots[k]);
        const std::string& value = slot < captures.size() ? captures[slot] : std::string();
        // The English slot decides whether the text is looked up.
        bool translate = false;
        for (size_t e = 0; e < en.slots.size(); ++e)
            if (static_cast<size_t>(en.slots[e]) == slot) translate = en.translated[e];
        out += translate ? Translate(value, found) : value;
        out += zh.literals[k + 1];
    }
    return out;
}

// Every phrase and every Word, parsed once.
struct Entry {
    Template en, zh;
};
const std::vector<Entry>& Entries() {
    static const std::vector<Entry> entries = [] {
        std::vector<Entry> out;
        for (const Word& w : kPhrases) out.push_back({Parse(w.en), Parse(w.zh)});
        for (const Word* w : kAllWords) out.push_back({Parse(w->en), Parse(w->zh)});
        return out;
    }();
    return entries;
}

std::string Translate(const std::string& english, bool* found) {
    std::vector<std::string> captures;
    for (const Entry& e : Entries()) {
        if (e.en.slots.empty()) {
            if (e.en.literals[0] == english) return e.zh.literals[0];
            continue;
        }
        if (Match(e.en, english, &captures)) return Fill(e.zh, captures, e.en, found);
    }
    *found = false;
    std::lock_guard<std::mutex> lock(g_misses_mutex);
    g_misses.insert(english);
    return english;
}

}  // namespace

std::string Say(std::string_view language, const std::string& english) {
    if (language != "zh" || english.empty()) return english;
    bool found = true;
    return Translate(english, &found);
}

std::string Say(std::string_view language, const Message& message) {
    if (language != "zh" || message.text.empty()) return message.text;
    if (!message.id.empty() && FindMessageForm(message.id)) return Render(message, language);
    return Say(language, message.text);
}

std::string SayChoice(std::string_view language, const ParamSpec& spec, const std::string& choice) {
    // Names read the same in both languages (a tile configuration's shape: threads, block tile,
    // warp tile); their notes carry the Chinese.
    if (spec.verbatim_choices) return choice;
    // The chapter names its choices in Chinese beside them; a choice it has not named is shown
    // as it is.
    return spec.ChoiceLabel(language, choice);
}

std::vector<std::string> TranslationMisses() {
    std::lock_guard<std::mutex> lock(g_misses_mutex);
    return {g_misses.begin(), g_misses.end()};
}

void ClearTranslationMisses() {
    std::lock_guard<std::mutex> lock(g_misses_mutex);
    g_misses.clear();
}

void RecordTranslationMiss(const std::string& english) {
    std::lock_guard<std::mutex> lock(g_misses_mutex);
    g_misses.insert(english);
}

std::vector<std::string_view> PhrasesZh() {
    std::vector<std::string_view> out;
    for (const Word& w : kPhrases) out.push_back(w.zh);
    return out;
}

}  // namespace lessons::app
