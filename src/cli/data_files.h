// The files schedlab ships beside its binary: the report's plotting libraries and the bundled KTH log. They are
// found relative to the executable, so an installed tree works wherever it is put and after the build tree is
// gone: PREFIX/bin/schedlab reads PREFIX/share/schedlab/NAME; the build tree's build/schedlab reads
// build/share/schedlab/NAME (the build copies them there).
#pragma once

#include <string>
#include <string_view>

namespace schedlab::cli {

// The path of the shipped file `name` ("report-libs.js", "KTH-SP2-1996-2.swf.gz"). Throws std::invalid_argument
// naming the places looked in when it is in none of them.
std::string data_file(std::string_view name);

}  // namespace schedlab::cli
