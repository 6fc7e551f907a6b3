// An obvious Maui (sim/maui.h), shared by its test (src/sim/maui_reference_test.cc): at every call it lists the
// busy intervals of the running jobs, orders the whole queue by priority and then every job after the last
// reservation by the backfill order (stable sorts), and checks each one against those intervals by a scan — no
// availability profile (src/sim/availability_profile.h), no walk that skips jobs, no early stop. It must give
// every job the same start as the scheduler, with every option.
#pragma once

#include <memory>

#include "schedlab/sim/scheduler.h"
#include "sim/maui.h"

namespace schedlab::testing {

std::unique_ptr<sim::Scheduler> sorting_maui(const sim::MauiScheduler::Options& options);

}  // namespace schedlab::testing
