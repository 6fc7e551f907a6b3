// `estimates fit` by name: the file is the named fit's own JSON, and bad options are refused before fitting.
#include "schedlab/model/estimate_fit.h"

#include <gtest/gtest.h>

#include <string>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::model {
namespace {

const std::vector<swf::Record>& kth_records() {
  static const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  return log.records;
}

TEST(EstimateFit, TheFileIsTheNamedFitsOwn) {
  EstimateFitOptions o;
  o.top = 3;
  const EstimateFit t = fit_estimate_model({&kth_records()}, {"kth.swf"}, o);
  ASSERT_TRUE(t.tsafrir.has_value());
  EXPECT_FALSE(t.song.has_value());
  nlohmann::ordered_json expected = to_json(fit_tsafrir(kth_records(), 3));
  expected["info"]["source"] = "kth.swf";
  EXPECT_EQ(t.file, expected);
  o = {};
  o.model = "song";
  o.family = "gamma";
  o.min_group_jobs = 25;
  const EstimateFit s = fit_estimate_model({&kth_records(), &kth_records()}, {"a", "b"}, o);
  ASSERT_TRUE(s.song.has_value());
  SongModel m = fit_song({&kth_records(), &kth_records()}, {SongFamily::kGamma, 25});
  m.sources = {"a", "b"};
  EXPECT_EQ(s.file, song_to_json(m));
}

TEST(EstimateFit, BadOptionsAreRefusedBeforeFitting) {
  const auto refused = [](EstimateFitOptions o, size_t logs, const std::string& what) {
    try {
      check_estimate_fit_options(o, logs);
      ADD_FAILURE() << "expected an error about " << what;
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  EstimateFitOptions o;
  refused(o, 2, "the tsafrir model is fitted to one log (got 2)");
  o.top = 20;
  refused(o, 1, "--top must be in 0..19");
  o = {};
  o.model = "song";
  o.family = "normal";
  refused(o, 1, "--family must be beta or gamma (got normal)");
  o.family = "beta";
  refused(o, 0, "the song model needs at least one log");
  // The other model's options would change nothing: refused, not silently unused.
  o.tmax = "max";
  refused(o, 1, "--tmax applies to the tsafrir model only");
  o.tmax.reset();
  o.top = 3;
  refused(o, 1, "--top applies to the tsafrir model only");
  o.top.reset();
  o.min_group_jobs = 0;
  refused(o, 1, "--min-group-jobs must be at least 1 (got 0)");
  o = {};
  o.family = "beta";
  refused(o, 1, "--family applies to the song model only");
  o = {};
  o.min_group_jobs = 10;
  refused(o, 1, "--min-group-jobs applies to the song model only");
  o.model = "tsafir";
  refused(o, 1, "--model must be tsafrir or song (got tsafir)");
  EstimateFitOptions zero;
  zero.tmax = std::string(1, '0');
  refused(zero, 1, "--tmax: expected limit, max or a duration such as 18h (got \"0\")");
  EXPECT_THROW(fit_estimate_model({&kth_records()}, {}, EstimateFitOptions{}), ModelError);  // a name per log
}

}  // namespace
}  // namespace schedlab::model
