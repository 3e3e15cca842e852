#include "guard_zones.h"

#include <atomic>
#include <mutex>
#include <utility>

#include "message.h"

namespace lessons {

uint8_t GuardByte(size_t i) {
    // A byte from 0x10..0xEF that changes at every offset (a multiplicative hash of i).
    const uint32_t h = static_cast<uint32_t>((i * 2654435761u) >> 7) + static_cast<uint32_t>(i);
    uint8_t b = static_cast<uint8_t>(0x10 + (h % 0xE0));
    return b;
}

void FillGuard(uint8_t* zone, size_t n) {
    for (size_t i = 0; i < n; ++i) zone[i] = GuardByte(i);
}

std::optional<GuardHit> CheckGuard(const uint8_t* zone, size_t n) {
    std::optional<GuardHit> hit;
    for (size_t i = 0; i < n; ++i) {
        if (zone[i] == GuardByte(i)) continue;
        if (!hit) hit = GuardHit{i, i, 0};
        hit->last = i;
        ++hit->count;
    }
    return hit;
}

namespace {

// The damage in both languages: {1} the buffer, {2} its bytes, {3} the bytes changed, and {4},
// {5} the first and last changed byte after its end, or {4} the farthest before its start.
constexpr MessageForm kPastTheEnd{
    "",
    "your kernel wrote past the end of {1} ({2} bytes): {3} bytes changed, from byte {4} to "
    "byte {5} after its end",
    "你的 kernel 越过了 {1}（{2} 字节）的末尾写入：改动了 {3} 个字节，位于末尾之后第 {4} 到第 {5} "
    "字节"};
constexpr MessageForm kBeforeTheStart{
    "",
    "your kernel wrote before the start of {1}: {3} bytes changed, up to {4} bytes before its "
    "start",
    "你的 kernel 在 {1} 的起点之前写入：改动了 {3} 个字节，最远在起点之前 {4} 字节"};

std::string DamageText(bool zh, const std::string& buffer, size_t bytes,
                       const std::optional<GuardHit>& before,
                       const std::optional<GuardHit>& after) {
    const auto words = [zh](const MessageForm& form) { return zh ? form.zh : form.en; };
    const auto n = [](size_t v) { return std::to_string(v); };
    std::string out;
    if (after)
        out = FillForm(words(kPastTheEnd),
                       {buffer, n(bytes), n(after->count), n(after->first), n(after->last)});
    if (before)
        out += std::string(out.empty() ? ""
                           : zh        ? "；"
                                       : "; ") +
               FillForm(words(kBeforeTheStart),
                        {buffer, n(bytes), n(before->count), n(kGuardBytes - before->first)});
    return out;
}

}  // namespace

std::string GuardDamageText(const std::string& buffer, size_t bytes,
                            const std::optional<GuardHit>& before,
                            const std::optional<GuardHit>& after) {
    return DamageText(false, buffer, bytes, before, after);
}

std::string GuardDamageTextZh(const std::string& buffer, size_t bytes,
                              const std::optional<GuardHit>& before,
                              const std::optional<GuardHit>& after) {
    return DamageText(true, buffer, bytes, before, after);
}

namespace {

std::atomic<bool> g_on{false};
std::mutex g_mutex;
std::vector<GuardDamage> g_damage;

}  // namespace

void SetGuardZones(bool on) {
    g_on = on;
}

bool GuardZonesOn() {
    return g_on;
}

void ReportGuardDamage(GuardDamage damage) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_damage.push_back(std::move(damage));
}

std::vector<GuardDamage> TakeGuardDamage() {
    const std::lock_guard<std::mutex> lock(g_mutex);
    return std::exchange(g_damage, {});
}

}  // namespace lessons
