#include "model/export.h"

#include <sys/stat.h>

#include <stb_image_write.h>

#include <cerrno>
#include <cstring>

#include "errors.h"
#include "files.h"
#include "report.h"

namespace lessons::app {

std::string ExportText(const std::vector<StoredResult>& results, ExportFormat format,
                       const std::vector<std::string>& param_names) {
    if (format == ExportFormat::kJson) {
        Json all = Json::array();
        for (const StoredResult& s : results) all.push_back(ToJson(s.result));
        return all.dump(2) + "\n";
    }
    std::string text = CsvHeader(param_names) + ",recorded\n";
    for (const StoredResult& s : results)
        text += CsvRow(s.result, param_names) + "," + (s.result.recorded ? "true" : "false") + "\n";
    return text;
}

std::string ExportFileName(std::time_t now, ExportFormat format) {
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    return std::string("results-") + stamp + (format == ExportFormat::kJson ? ".json" : ".csv");
}

std::string ScreenshotPath(const std::string& dir, std::time_t now) {
    return dir + "/screenshot-" + std::to_string(now) + ".png";
}

std::string DefaultExportDir(const char* home, const char* xdg_data_home, unsigned uid,
                             std::string* notice) {
    if (notice) notice->clear();
    if (home && *home == '/') return std::string(home) + "/cuda-lessons-exports";
    std::string dir = xdg_data_home && *xdg_data_home == '/'
                          ? std::string(xdg_data_home) + "/cuda-lessons-exports"
                          : "/tmp/cuda-lessons-" + std::to_string(uid);
    if (dir.rfind("/tmp/", 0) == 0) {
        // A shared folder: ours only if it is a real folder this user owns that no one else
        // can write (made so here); else one of our own, made fresh.
        ::mkdir(dir.c_str(), 0700);
        struct stat st {};
        if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid ||
            (st.st_mode & 022) != 0) {
            std::string fresh = dir + "-XXXXXX";
            dir = ::mkdtemp(fresh.data()) ? fresh : std::string();
            if (dir.empty()) {
                if (notice) *notice = "HOME is not set and no private folder could be made in /tmp";
                return dir;
            }
        }
    }
    if (notice)
        *notice = "HOME is not set: exports and screenshots go to " + dir +
                  " (set HOME, or XDG_DATA_HOME, to choose)";
    return dir;
}

bool MakeFolders(const std::string& dir, std::string* error) {
    for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
        const std::string part = dir.substr(0, slash);
        if (!part.empty() && mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
            if (error) *error = "cannot create the folder " + part + ": " + std::strerror(errno);
            return false;
        }
        if (slash == std::string::npos) break;
    }
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (error) *error = dir + " is not a folder";
        return false;
    }
    return true;
}

bool WritePng(const std::string& path, int width, int height, const unsigned char* pixels,
              std::string* error) {
    if (width <= 0 || height <= 0) {
        if (error) *error = "cannot write " + path + ": the image has no size";
        return false;
    }
    // Encoded in memory, then written (and every write checked) by WriteFileReplacing:
    // stb's own file writer ignores failed writes.
    const size_t row = size_t(width) * 4;
    const unsigned char* last_row = pixels + row * size_t(height - 1);
    std::string png;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, width, height, 4, last_row, -static_cast<int>(row))) {
        if (error) *error = "cannot write " + path + ": the PNG could not be encoded";
        return false;
    }
    return WriteReplacing(path, png, error);
}

bool WriteReplacing(const std::string& path, std::string_view contents, std::string* error,
                    const std::string& prefix) {
    try {
        WriteFileReplacing(path, contents);
    } catch (const std::exception& e) {
        if (error) *error = prefix + e.what();
        return false;
    }
    return true;
}

std::string ExportResults(const std::string& dir, const std::vector<StoredResult>& results,
                          ExportFormat format, std::time_t now,
                          const std::vector<std::string>& param_names) {
    const std::string path = dir + "/" + ExportFileName(now, format);
    std::string error;
    if (!MakeFolders(dir, &error)) return "Could not write " + path + ": " + error;
    try {
        WriteFileReplacing(path, ExportText(results, format, param_names));
    } catch (const std::exception& e) {
        // FileError: "cannot write 'PATH': REASON"; the path is already said.
        const std::string what = e.what();
        const size_t reason = what.find("': ");
        return "Could not write " + path + ": " +
               (reason == std::string::npos ? what : what.substr(reason + 3));
    }
    return "Exported " + std::to_string(results.size()) + " results to " + path;
}

}  // namespace lessons::app
