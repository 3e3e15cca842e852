// An environment variable set (or unset) for a scope of a test, and put back as it was after.
#pragma once

#include <cstdlib>
#include <string>

class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : m_name(name) {
        const char* old = std::getenv(name);
        m_had = old != nullptr;
        if (old) m_saved = old;
        Set(value);
    }
    ~ScopedEnv() {
        if (m_had)
            Set(m_saved);
        else
            Unset();
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;
    void Set(const std::string& value) { setenv(m_name.c_str(), value.c_str(), 1); }
    void Unset() { unsetenv(m_name.c_str()); }

private:
    std::string m_name;
    bool m_had = false;
    std::string m_saved;
};
