package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.FaultSchedule.BrokerBounce;
import io.weir.testing.FaultSchedule.Kill;
import io.weir.testing.FaultSchedule.Planned;
import io.weir.testing.FaultSchedule.ScaleIn;
import io.weir.testing.FaultSchedule.ScaleOut;
import io.weir.testing.FaultSchedule.Settings;
import io.weir.testing.FaultSchedule.Step;
import io.weir.testing.FaultSchedule.Zombie;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

    private static final Settings FULL = Settings.FULL;

    @Test
    void theSameSeedGivesTheSamePlanAndAnotherSeedAnother() {
        assertThat(FaultSchedule.plan(42, Settings.CI, 6)).isEqualTo(FaultSchedule.plan(42, Settings.CI, 6));
        assertThat(FaultSchedule.plan(42, FULL, 6).steps())
                .isNotEqualTo(FaultSchedule.plan(43, FULL, 6).steps());
    }

    @Test
    void theCiScheduleHasEveryKindOfFault() {
        for (long seed = 0; seed < 200; seed++) {
            List<Step> steps = steps(FaultSchedule.plan(seed, Settings.CI, 6));
            assertThat(steps).hasSize(6);
            assertThat(count(steps, Kill.class)).isEqualTo(2);
            assertThat(steps)
                    .as("seed %d: a kill restarted at once and one after a takeover", seed)
                    .anyMatch(s -> s instanceof Kill k && !k.afterTakeover())
                    .anyMatch(s -> s instanceof Kill k && k.afterTakeover());
            assertThat(count(steps, Zombie.class)).isEqualTo(1);
            assertThat(count(steps, BrokerBounce.class)).isEqualTo(1);
            assertThat(count(steps, ScaleOut.class)).isEqualTo(1);
            assertThat(count(steps, ScaleIn.class)).isEqualTo(1);
        }
    }

    @Test
    void everyStepActsOnARunningInstanceAndScalingGoesFromOneToThreeToOne() {
        for (long seed = 0; seed < 500; seed++) {
            FaultSchedule plan = FaultSchedule.plan(seed, FULL, 6);
            Set<String> running = new LinkedHashSet<>(plan.initialInstances());
            assertThat(running).as("seed %d", seed).containsExactly("i1");
            List<Integer> sizes = new ArrayList<>(List.of(running.size()));
            for (Step step : steps(plan)) {
                if (step instanceof ScaleOut s) {
                    running.addAll(s.instances());
                } else if (step instanceof ScaleIn s) {
                    assertThat(running).containsAll(s.instances());
                    s.instances().forEach(running::remove);
                } else if (step instanceof Kill k) {
                    assertThat(running).as("seed %d: %s", seed, k).contains(k.instance());
                    assertThat(!k.afterTakeover() || running.size() > 1)
                            .as("seed %d: %s", seed, k)
                            .isTrue();
                } else if (step instanceof Zombie z) {
                    assertThat(running).as("seed %d: %s", seed, z).contains(z.instance());
                    assertThat(running)
                            .as("a zombie's tasks need another instance")
                            .hasSizeGreaterThan(1);
                } else if (step instanceof BrokerBounce b) {
                    assertThat(b.partition()).isBetween(0, 5);
                }
                if (sizes.get(sizes.size() - 1) != running.size()) {
                    sizes.add(running.size());
                }
            }
            assertThat(sizes).as("seed %d", seed).containsExactly(1, 3, 1);
        }
    }

    @Test
    void stepsStrikeInOrderWithinTheInputAndTheLastReleasesAllOfIt() {
        for (long seed = 0; seed < 100; seed++) {
            FaultSchedule plan = FaultSchedule.plan(seed, FULL, 6);
            long segment = FULL.records() / (plan.steps().size() + 1);
            assertThat(plan.firstHold()).isEqualTo(segment);
            long hold = plan.firstHold();
            long previous = 0;
            for (Planned p : plan.steps()) {
                assertThat(p.trigger())
                        .isGreaterThan(previous)
                        .isLessThanOrEqualTo(hold)
                        .isGreaterThanOrEqualTo(hold - segment / 2);
                assertThat(p.holdAt()).isGreaterThan(hold);
                previous = p.trigger();
                hold = p.holdAt();
            }
            assertThat(hold).isEqualTo(FULL.records());
        }
    }

    @Test
    void withoutScalingAllThreeInstancesRunThroughout() {
        FaultSchedule plan = FaultSchedule.plan(7, new Settings(10_000, 100, 1_000, 3, 1, 1, false), 6);
        assertThat(plan.initialInstances()).containsExactly("i1", "i2", "i3");
        assertThat(steps(plan)).hasSize(5).noneMatch(s -> s instanceof ScaleOut || s instanceof ScaleIn);
    }

    private static List<Step> steps(FaultSchedule plan) {
        return plan.steps().stream().map(Planned::step).toList();
    }

    private static long count(List<Step> steps, Class<? extends Step> kind) {
        return steps.stream().filter(kind::isInstance).count();
    }
}
