// SPDX-License-Identifier: GPL-3.0-or-later
// The Switches button: one entry per engine switch under its CLI name, options() and setOptions()
// round-trip every combination, the text counts the switches off, and only the user's own changes
// are signalled.
#include "widgets/views/switches_button.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QSignalSpy>

#include <random>

namespace wandscope::test {
namespace {

using widgets::SwitchesButton;

TEST(SwitchesButton, AnEntryPerSwitchUnderItsCliNameWithADescription) {
  SwitchesButton button;
  std::size_t n = 0;
  engine::SearchOptions{}.forEach([&](const char* name, bool) {
    QAction* a = button.switchAction(QString::fromLatin1(name));
    ASSERT_NE(a, nullptr) << name;
    EXPECT_TRUE(a->isCheckable());
    EXPECT_TRUE(a->isChecked()) << name << " is on by default";
    EXPECT_FALSE(a->toolTip().isEmpty()) << name << " has no description";
    ++n;
  });
  EXPECT_EQ(button.menu()->actions().size(), static_cast<qsizetype>(n));
  EXPECT_EQ(button.switchAction(QStringLiteral("no_such_switch")), nullptr);
  EXPECT_EQ(button.text(), QStringLiteral("Switches"));
}

TEST(SwitchesButton, OptionsRoundTripAndTheTextCountsWhatIsOff) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  SwitchesButton button;
  QSignalSpy changed(&button, &SwitchesButton::optionsChanged);
  for (int round = 0; round < 50; ++round) {
    engine::SearchOptions o;
    int off = 0;
    std::string spec;
    o.forEach([&](const char* name, bool) {
      const bool on = (rng() & 1) != 0;
      off += on ? 0 : 1;
      spec += std::string(spec.empty() ? "" : ",") + name + (on ? "=on" : "=off");
    });
    o.apply(spec);
    button.setOptions(o);
    EXPECT_EQ(button.options(), o) << spec;
    EXPECT_EQ(button.text(), off == 0 ? QStringLiteral("Switches") : QStringLiteral("Switches (%1 off)").arg(off));
  }
  EXPECT_EQ(changed.count(), 0) << "setOptions is not the user's change";
  button.setOptions({});
  button.switchAction(QStringLiteral("bulk_or"))->trigger();  // as a click does
  EXPECT_EQ(changed.count(), 1);
  EXPECT_FALSE(button.options().bulkOr);
  EXPECT_EQ(button.text(), QStringLiteral("Switches (1 off)"));
  EXPECT_TRUE(button.toolTip().contains(QStringLiteral("Off: bulk_or")));
}

}  // namespace
}  // namespace wandscope::test
