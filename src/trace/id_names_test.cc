#include "schedlab/trace/id_names.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace schedlab::trace {
namespace {

swf::Header named() {
  swf::Header h;
  h.add_note("users: 1=alice, 2=bob.smith, 10=c-3");
  h.add_note("partitions: 1=batch");
  h.add_note("job names (field 14): 1=a, b, 2=c");  // not a kind asked for below
  return h;
}

TEST(IdNames, TheHeadersMappingByKind) {
  const auto users = header_names(named(), "users");
  ASSERT_EQ(users.size(), 3u);
  EXPECT_EQ(users.at("alice"), 1);
  EXPECT_EQ(users.at("bob.smith"), 2);
  EXPECT_EQ(users.at("c-3"), 10);
  EXPECT_EQ(header_names(named(), "partitions").at("batch"), 1);
  EXPECT_TRUE(header_names(named(), "groups").empty());
  EXPECT_TRUE(header_names(swf::Header{}, "users").empty());
  const auto by_id = header_names_by_id(named(), "users");
  EXPECT_EQ(name_of(by_id, 10), "c-3");
  EXPECT_EQ(name_of(by_id, 3), "");
  EXPECT_EQ(name_of(by_id, 3, "-"), "-");
}

TEST(IdNames, NamesToNumbersOrAnErrorThatListsTheNames) {
  EXPECT_EQ(ids_of_names("--users", {"c-3", "alice"}, named(), "users"), (std::set<int32_t>{1, 10}));
  EXPECT_TRUE(ids_of_names("--users", {}, swf::Header{}, "users").empty());
  try {
    ids_of_names("--users", {"dave"}, named(), "users");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--users: 'dave' is neither a number nor one of the log's users (its header names: "
                           "1=alice, 2=bob.smith, 10=c-3)");
  }
  EXPECT_THROW(ids_of_names("--partition", {"gpu"}, named(), "groups"), std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::trace
