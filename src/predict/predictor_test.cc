#include "schedlab/predict/predictor.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/registry.h"

namespace schedlab::predict {
namespace {

TEST(PredictorTest, EstimateAndPerfect) {
  Job j;
  j.id = 0;
  j.estimate = 500;
  j.runtime = 42;
  Updates u;
  EXPECT_EQ(EstimatePredictor{}.on_arrival(0, j, u), 500);
  EXPECT_EQ(PerfectPredictor{}.on_arrival(0, j, u), 42);
  EXPECT_TRUE(u.empty());
}

TEST(PredictorTest, RegistryMakesAndClones) {
  ASSERT_GE(predictors().size(), 2u);
  for (const auto& e : predictors()) {
    auto p = make_predictor(e.name);
    EXPECT_EQ(p->name(), e.name);
    EXPECT_EQ(p->clone()->name(), e.name);
  }
  EXPECT_EQ(make_predictor(kDefaultPredictor)->name(), "estimate");
}

TEST(PredictorTest, UnknownNameListsKnownOnes) {
  try {
    make_predictor("oracle");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("known: estimate, perfect"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace schedlab::predict
