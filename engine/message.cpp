#include "message.h"

#include <cctype>
#include <map>
#include <mutex>

#include "report.h"  // MessageIdJson, MessageFromJson

namespace lessons {

namespace {

constexpr const MessageForm* kEngineForms[] = {
    &kNoCudaInBuild, &kNoCudaForLesson, &kNoRunner, &kNoGpuFound,  &kNoGpuFoundError,
    &kNoDriver,      &kCudaCannotStart, &kTooOld,   &kNoProperties};

struct Forms {
    std::mutex mutex;
    std::map<std::string, MessageForm, std::less<>> by_id;
};

Forms& Registered() {
    static Forms forms;
    return forms;
}

// The highest "{N}" in `form`.
size_t Slots(std::string_view form) {
    size_t most = 0;
    for (size_t i = 0; i < form.size(); ++i) {
        if (form[i] != '{') continue;
        size_t j = i + 1, n = 0;
        while (j < form.size() && std::isdigit(static_cast<unsigned char>(form[j])))
            n = n * 10 + static_cast<size_t>(form[j++] - '0');
        if (j > i + 1 && j < form.size() && form[j] == '}') most = std::max(most, n);
    }
    return most;
}

}  // namespace

std::string FillForm(std::string_view form, const std::vector<std::string>& args) {
    std::string out;
    for (size_t i = 0; i < form.size(); ++i) {
        if (form[i] == '{') {
            size_t j = i + 1, n = 0;
            while (j < form.size() && std::isdigit(static_cast<unsigned char>(form[j])))
                n = n * 10 + static_cast<size_t>(form[j++] - '0');
            if (j > i + 1 && j < form.size() && form[j] == '}' && n >= 1 && n <= args.size()) {
                out += args[n - 1];
                i = j;
                continue;
            }
        }
        out += form[i];
    }
    return out;
}

Message Message::Of(const MessageForm& form, std::vector<std::string> args) {
    Message m;
    m.id = std::string(form.id);
    m.text = FillForm(form.en, args);
    m.args = std::move(args);
    return m;
}

Message Message::Plain(std::string text) {
    Message m;
    m.text = std::move(text);
    return m;
}

void RegisterMessageForms(const std::vector<MessageForm>& forms) {
    Forms& r = Registered();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const MessageForm& f : forms) r.by_id[std::string(f.id)] = f;
}

const MessageForm* FindMessageForm(std::string_view id) {
    for (const MessageForm* f : kEngineForms)
        if (f->id == id) return f;
    Forms& r = Registered();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.by_id.find(id);
    return it == r.by_id.end() ? nullptr : &it->second;
}

std::string Render(const Message& message, std::string_view language) {
    if (language != "zh" || message.id.empty()) return message.text;
    const MessageForm* form = FindMessageForm(message.id);
    if (!form || form->zh.empty() || Slots(form->zh) != message.args.size()) return message.text;
    return FillForm(form->zh, message.args);
}

Json MessageIdJson(const Message& message) {
    if (message.id.empty()) return nullptr;
    return {{"id", message.id}, {"args", message.args}};
}

Message MessageFromJson(const Json& id_and_args, std::string text) {
    Message m = Message::Plain(std::move(text));
    if (!id_and_args.is_object()) return m;
    const auto id = id_and_args.find("id");
    const auto args = id_and_args.find("args");
    if (id == id_and_args.end() || !id->is_string()) return m;
    if (args != id_and_args.end()) {
        if (!args->is_array()) return m;
        for (const Json& a : *args) {
            if (!a.is_string()) return Message::Plain(std::move(m.text));
            m.args.push_back(a.get<std::string>());
        }
    }
    m.id = id->get<std::string>();
    return m;
}

}  // namespace lessons
