#include "guard_zones.h"

#include <atomic>
#include <mutex>
#include <utility>

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

std::string GuardDamageText(const std::string& buffer, size_t bytes,
                            const std::optional<GuardHit>& before,
                            const std::optional<GuardHit>& after) {
    std::string out;
    if (after)
        out += "your kernel wrote past the end of " + buffer + " (" + std::to_string(bytes) +
               " bytes): " + std::to_string(after->count) + " bytes changed, from byte " +
               std::to_string(after->first) + " to byte " + std::to_string(after->last) +
               " after its end";
    if (before)
        out += std::string(out.empty() ? "" : "; ") + "your kernel wrote before the start of " +
               buffer + ": " + std::to_string(before->count) + " bytes changed, up to " +
               std::to_string(kGuardBytes - before->first) + " bytes before its start";
    return out;
}

std::string GuardDamageTextZh(const std::string& buffer, size_t bytes,
                              const std::optional<GuardHit>& before,
                              const std::optional<GuardHit>& after) {
    std::string out;
    if (after)
        out += "你的 kernel 越过了 " + buffer + "（" + std::to_string(bytes) +
               " 字节）的末尾写入：改动了 " + std::to_string(after->count) +
               " 个字节，位于末尾之后第 " + std::to_string(after->first) + " 到第 " +
               std::to_string(after->last) + " 字节";
    if (before)
        out += std::string(out.empty() ? "" : "；") + "你的 kernel 在 " + buffer +
               " 的起点之前写入：改动了 " + std::to_string(before->count) +
               " 个字节，最远在起点之前 " + std::to_string(kGuardBytes - before->first) + " 字节";
    return out;
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
