#include "export.h"

#include <sys/stat.h>

#include <fstream>

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

std::string ExportResults(const std::string& dir, const std::vector<StoredResult>& results,
                          ExportFormat format, std::time_t now,
                          const std::vector<std::string>& param_names) {
    mkdir(dir.c_str(), 0755);
    const std::string path = dir + "/" + ExportFileName(now, format);
    std::ofstream out(path);
    out << ExportText(results, format, param_names);
    out.flush();
    return out ? "Exported " + std::to_string(results.size()) + " results to " + path
               : "Could not write " + path;
}

}  // namespace lessons::app
