// Files compiled into the programs: lesson texts and step sources (cmake/Embed.cmake).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace lessons {

// Path relative to the repository root -> contents. Generated at build time.
const std::map<std::string, std::string_view>& EmbeddedFiles();

// The contents of an embedded file, or an empty view when there is none.
std::string_view EmbeddedFile(std::string_view path);

}  // namespace lessons
