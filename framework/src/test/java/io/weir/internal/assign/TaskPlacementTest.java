package io.weir.internal.assign;

import static io.weir.internal.assign.PlacementScenario.member;
import static io.weir.internal.assign.PlacementScenario.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.assign.PlacementInput.Instance;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TaskPlacementTest {

    private static Set<TaskId> activeOn(Placement p, String instance) {
        return p.instances().get(instance).active();
    }

    private static Set<TaskId> allGiven(Placement p) {
        Set<TaskId> all = new TreeSet<>();
        p.members().values().forEach(t -> all.addAll(t.active()));
        return all;
    }

    // ---- state ---------------------------------------------------------------------------------

    @Test
    void taskGoesToTheInstanceHoldingItsStateNotToAnEmptyOne() {
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(3, 1_000)
                .instance("a", 1)
                .instance("b", 1)
                .instance("c", 1)
                .state("a", task(1, 2), 1_000)
                .state("b", task(1, 0), 950)
                .state("c", task(1, 1), 1_000);
        Placement p = s.rebalance();
        assertThat(activeOn(p, "a")).containsExactly(task(1, 2));
        assertThat(activeOn(p, "b")).containsExactly(task(1, 0));
        assertThat(activeOn(p, "c")).containsExactly(task(1, 1));
        assertThat(p.warmups()).isEmpty();
    }

    @Test
    void aTaskWhoseOwnerLeftGoesToItsStandbyEvenOverShareAndWarmsUpElsewhere() {
        // a ran 1_0 and left; b has a standby of it; c is empty. b already runs its share.
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(3, 1_000)
                .instance("b", 1)
                .instance("c", 1)
                .owns("b", 0, task(1, 1), task(1, 2))
                .state("b", task(1, 0), 990);
        Placement p = s.rebalance();
        assertThat(activeOn(p, "b")).containsExactly(task(1, 0), task(1, 1), task(1, 2));
        assertThat(p.warmups()).containsOnlyKeys(task(1, 0));
        assertThat(p.warmups().get(task(1, 0))).isEqualTo(new Placement.Warmup("c", 1_000));
        assertThat(p.members().get(member("c", 0)).warmup()).containsExactly(task(1, 0));
    }

    @Test
    void aTaskCaughtUpNowhereGoesToTheLeastBehindInstanceWithRoom() {
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(2, 10_000)
                .instance("a", 1)
                .instance("b", 1)
                .instance("c", 1)
                .state("b", task(1, 0), 5_000)
                .state("c", task(1, 0), 8_000);
        Placement p = s.rebalance();
        assertThat(activeOn(p, "c")).contains(task(1, 0));
    }

    @Test
    void aStateSumPastTheChangelogsEndCountsAsNoState() {
        // The changelog was recreated: b's sum belongs to the old one.
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(1, 1_000)
                .instance("a", 1)
                .instance("b", 1)
                .state("a", task(1, 0), 500)
                .state("b", task(1, 0), 50_000);
        assertThat(activeOn(s.rebalance(), "a")).containsExactly(task(1, 0));
    }

    // ---- balance -------------------------------------------------------------------------------

    @Test
    void balancesByInstanceInProportionToThreadsThenByThread() {
        PlacementScenario s =
                new PlacementScenario().statelessTasks(6).instance("a", 1).instance("b", 2);
        Placement p = s.rebalance();
        assertThat(activeOn(p, "a")).hasSize(2);
        assertThat(activeOn(p, "b")).hasSize(4);
        assertThat(p.members().get(member("b", 0)).active()).hasSize(2);
        assertThat(p.members().get(member("b", 1)).active()).hasSize(2);

        PlacementScenario odd =
                new PlacementScenario().statelessTasks(7).instance("a", 1).instance("b", 2);
        Placement q = odd.rebalance();
        assertThat(activeOn(q, "a").size() + activeOn(q, "b").size()).isEqualTo(7);
        assertThat(activeOn(q, "a")).hasSizeBetween(2, 3);
        assertThat(activeOn(q, "b")).hasSizeBetween(4, 5);
        assertThat(List.of(
                        q.members().get(member("b", 0)).active().size(),
                        q.members().get(member("b", 1)).active().size()))
                .allMatch(n -> n >= 2 && n <= 3);
    }

    @Test
    void keepsTasksWhereTheyAreWhenBalanceAllows() {
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(4, 1_000)
                .instance("a", 1)
                .instance("b", 1)
                .owns("a", 0, task(1, 0), task(1, 3))
                .owns("b", 0, task(1, 1), task(1, 2));
        Placement p = s.rebalance();
        assertThat(activeOn(p, "a")).containsExactly(task(1, 0), task(1, 3));
        assertThat(activeOn(p, "b")).containsExactly(task(1, 1), task(1, 2));
        assertThat(p.withheld()).isEmpty();
    }

    @Test
    void aJoiningInstanceTakesOnlyItsShareFromTheOthers() {
        PlacementScenario s = new PlacementScenario()
                .statelessTasks(6)
                .instance("a", 1)
                .instance("b", 1)
                .owns("a", 0, task(0, 0), task(0, 1), task(0, 2))
                .owns("b", 0, task(0, 3), task(0, 4), task(0, 5));
        s.instance("c", 1);
        Placement p = s.settle(3);
        assertThat(activeOn(p, "a")).hasSize(2).isSubsetOf(task(0, 0), task(0, 1), task(0, 2));
        assertThat(activeOn(p, "b")).hasSize(2).isSubsetOf(task(0, 3), task(0, 4), task(0, 5));
        assertThat(activeOn(p, "c")).hasSize(2);
    }

    @Test
    void statelessTasksMoveFreely() {
        PlacementScenario s = new PlacementScenario()
                .statelessTasks(4)
                .instance("a", 1)
                .owns("a", 0, task(0, 0), task(0, 1), task(0, 2), task(0, 3));
        s.instance("b", 1);
        Placement first = s.rebalance();
        assertThat(first.warmups()).isEmpty();
        assertThat(first.withheld()).hasSize(2).containsValues("b");
        assertThat(first.members().get(member("b", 0)).standby())
                .as("no state to keep")
                .isEmpty();
        Placement second = s.rebalance();
        assertThat(activeOn(second, "a")).hasSize(2);
        assertThat(second.members().get(member("b", 0)).active()).hasSize(2);
        assertThat(second.withheld()).isEmpty();
    }

    @Test
    void statefulTasksAreBalancedFirstSoACrashedInstanceThatComesBackGetsItsShareOfTheState() {
        // b was killed, a took over all twelve tasks; b is back with nothing on disk. Balancing only
        // the counts gave b the six stateless tasks and left all the state on a.
        PlacementScenario s = new PlacementScenario()
                .settings(0, 2, 100)
                .statefulTasks(6, 1_000)
                .statelessTasks(6)
                .instance("a", 1)
                .instance("b", 1);
        for (int p = 0; p < 6; p++) {
            s.owns("a", 0, task(0, p), task(1, p));
        }
        Placement first = s.rebalance();
        assertThat(first.warmups())
                .as("b warms up stateful tasks, within max.warmup.replicas")
                .hasSize(2)
                .allSatisfy((t, w) -> assertThat(w.instance()).isEqualTo("b"));
        Placement p = first;
        for (int round = 0;
                round < 10 && !(p.warmups().isEmpty() && p.withheld().isEmpty());
                round++) {
            p.members()
                    .forEach((m, t) ->
                            t.standby().forEach(task -> s.state(m.substring(0, m.lastIndexOf('-')), task, 1_000)));
            p = s.rebalance();
        }
        assertThat(p.warmups()).isEmpty();
        assertThat(p.withheld()).isEmpty();
        for (String instance : List.of("a", "b")) {
            assertThat(activeOn(p, instance)).as("tasks on %s", instance).hasSize(6);
            assertThat(activeOn(p, instance).stream().filter(t -> t.subtopology() == 1))
                    .as("stateful tasks on %s", instance)
                    .hasSize(3);
        }
    }

    // ---- standbys ------------------------------------------------------------------------------

    @Test
    void standbysAreNeverOnTheActivesInstanceAndEachOnAnotherInstance() {
        PlacementScenario s = new PlacementScenario()
                .settings(2, 2, 100)
                .statefulTasks(6, 1_000)
                .instance("a", 2)
                .instance("b", 1)
                .instance("c", 1);
        Placement p = s.settle(3);
        for (TaskId t : p.instances().values().stream()
                .flatMap(i -> i.active().stream())
                .toList()) {
            List<String> holders = p.instances().entrySet().stream()
                    .filter(e -> e.getValue().standby().contains(t))
                    .map(Map.Entry::getKey)
                    .toList();
            String active = p.instances().entrySet().stream()
                    .filter(e -> e.getValue().active().contains(t))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
            assertThat(holders)
                    .as("standbys of %s", t)
                    .hasSize(2)
                    .doesNotContain(active)
                    .doesNotHaveDuplicates();
        }

        // More replicas than other instances: as many as there are.
        PlacementScenario few = new PlacementScenario()
                .settings(3, 2, 100)
                .statefulTasks(2, 1_000)
                .instance("a", 1)
                .instance("b", 1);
        Placement q = few.settle(3);
        assertThat(q.instances().get("a").standby())
                .isEqualTo(q.instances().get("b").active());
        assertThat(q.instances().get("b").standby())
                .isEqualTo(q.instances().get("a").active());
    }

    @Test
    void standbyPrefersTheInstanceHoldingTheState() {
        PlacementScenario s = new PlacementScenario()
                .settings(1, 2, 100)
                .statefulTasks(1, 1_000)
                .instance("a", 1)
                .instance("b", 1)
                .instance("c", 1)
                .owns("a", 0, task(1, 0))
                .state("c", task(1, 0), 900);
        Placement p = s.rebalance();
        assertThat(p.instances().get("c").standby()).containsExactly(task(1, 0));
        assertThat(p.instances().get("b").standby()).isEmpty();
    }

    @Test
    void statelessTasksHaveNoStandbys() {
        PlacementScenario s = new PlacementScenario()
                .settings(2, 2, 100)
                .statelessTasks(3)
                .instance("a", 1)
                .instance("b", 1)
                .instance("c", 1);
        assertThat(s.rebalance().instances().values()).allMatch(t -> t.standby().isEmpty());
    }

    @Test
    void anActiveTurnedStandbyStaysOnTheThreadThatRanIt() {
        PlacementScenario s = new PlacementScenario()
                .settings(1, 2, 100)
                .statefulTasks(4, 1_000)
                .instance("a", 2)
                .owns("a", 1, task(1, 0), task(1, 1), task(1, 2), task(1, 3));
        s.instance("b", 1);
        for (int p = 0; p < 4; p++) {
            s.state("b", task(1, p), 1_000);
        }
        Placement p = s.rebalance();
        // b is caught up on all four and has room for one: that one moves, and a-1, which ran
        // it, keeps it as a standby (a-0 would have to wait for a-1 to close its stores).
        List<TaskId> toB = p.withheld().entrySet().stream()
                .filter(e -> e.getValue().equals("b"))
                .map(Map.Entry::getKey)
                .toList();
        assertThat(toB).hasSize(1);
        assertThat(p.members().get(member("a", 1)).standby()).containsExactlyElementsOf(toB);
        assertThat(p.members().get(member("a", 0)).standby()).isEmpty();
        assertThat(p.members().get(member("b", 0)).standby())
                .as("b tails it until the hand-over")
                .containsAll(toB);
    }

    // ---- warm-ups ------------------------------------------------------------------------------

    @Test
    void warmsUpThenMovesThroughTheCooperativeTwoStep() {
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(4, 1_000)
                .instance("a", 1)
                .owns("a", 0, task(1, 0), task(1, 1), task(1, 2), task(1, 3));
        s.instance("b", 1);

        // Round 1: b would restore 1,000 records (more than 100): the tasks stay, b warms two up.
        Placement first = s.rebalance();
        assertThat(activeOn(first, "a")).hasSize(4);
        assertThat(first.members().get(member("a", 0)).active()).hasSize(4);
        assertThat(first.members().get(member("b", 0)).active()).isEmpty();
        Set<TaskId> warming = first.members().get(member("b", 0)).warmup();
        assertThat(warming).hasSize(2);
        assertThat(first.members().get(member("b", 0)).standby()).isEqualTo(warming);
        assertThat(first.warmups().values()).allMatch(w -> w.instance().equals("b") && w.lag() == 1_000);
        assertThat(first.describe()).contains("2 warm-up").contains("lag 1000");

        // Round 2: b caught up; the tasks move, a revokes them first (b keeps tailing meanwhile).
        warming.forEach(t -> s.state("b", t, 990));
        Placement second = s.rebalance();
        assertThat(second.withheld()).containsOnlyKeys(warming);
        assertThat(second.members().get(member("a", 0)).active()).hasSize(2).doesNotContainAnyElementsOf(warming);
        assertThat(second.members().get(member("b", 0)).active()).isEmpty();
        assertThat(second.members().get(member("b", 0)).standby()).isEqualTo(warming);
        assertThat(second.warmups()).isEmpty();

        // Round 3, after the revocation: b runs them.
        Placement third = s.rebalance();
        assertThat(third.members().get(member("b", 0)).active()).isEqualTo(warming);
        assertThat(third.members().get(member("a", 0)).active()).hasSize(2);
        assertThat(third.withheld()).isEmpty();
        assertThat(third.instances()).isEqualTo(second.instances());
    }

    @Test
    void atMostMaxWarmupReplicasRunInTheGroup() {
        PlacementScenario s = new PlacementScenario()
                .settings(0, 3, 100)
                .statefulTasks(12, 1_000)
                .instance("a", 1);
        for (int p = 0; p < 12; p++) {
            s.owns("a", 0, task(1, p));
        }
        s.instance("b", 1).instance("c", 1);
        Placement p = s.rebalance();
        assertThat(p.warmups()).hasSize(3);
        assertThat(activeOn(p, "a")).hasSize(12);
        assertThat(p.withheld()).isEmpty();
    }

    @Test
    void movesTasksOnlyToCaughtUpInstancesOneWarmUpAtATime() {
        PlacementScenario s = new PlacementScenario()
                .settings(0, 1, 100)
                .statefulTasks(6, 1_000)
                .instance("a", 1);
        for (int p = 0; p < 6; p++) {
            s.owns("a", 0, task(1, p));
        }
        s.instance("b", 1).instance("c", 1);
        Placement p = null;
        for (int round = 0; round < 15; round++) {
            PlacementInput in = s.input();
            p = s.rebalance();
            assertThat(p.warmups()).hasSizeLessThanOrEqualTo(1);
            p.withheld()
                    .forEach((t, to) -> assertThat(in.instances().stream()
                                    .filter(i -> i.id().equals(to))
                                    .findFirst()
                                    .orElseThrow()
                                    .offsetSums()
                                    .getOrDefault(t, 0L))
                            .as("%s moving to %s", t, to)
                            .isGreaterThanOrEqualTo(900L));
            // The warm-up catches up before the next rebalance.
            p.warmups().forEach((t, w) -> s.state(w.instance(), t, 995));
        }
        assertThat(p.instances().values()).allMatch(t -> t.active().size() == 2);
        assertThat(p.warmups()).isEmpty();
    }

    @Test
    void settlesBalancedWithinAFewRebalancesAndThenStaysPut() {
        for (int seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            int stateful = random.nextInt(12);
            int stateless = 1 + random.nextInt(5);
            PlacementScenario s = new PlacementScenario()
                    .settings(random.nextInt(3), 1 + random.nextInt(3), 100)
                    .statefulTasks(stateful, 1_000)
                    .statelessTasks(stateless);
            int instances = 1 + random.nextInt(4);
            for (int i = 0; i < instances; i++) {
                s.instance("i" + i, 1 + random.nextInt(3));
            }
            for (int p = 0; p < stateful; p++) {
                if (random.nextBoolean()) {
                    s.owns("i" + random.nextInt(instances), 0, task(1, p));
                } else if (random.nextBoolean()) {
                    s.state("i" + random.nextInt(instances), task(1, p), random.nextInt(1_001));
                }
            }
            Placement previous = null;
            int unchanged = 0;
            for (int round = 0; round < 30 && unchanged < 3; round++) {
                Placement p = s.rebalance();
                // Standbys and warm-ups catch up before the next rebalance.
                p.members()
                        .forEach((m, t) ->
                                t.standby().forEach(task -> s.state(m.substring(0, m.lastIndexOf('-')), task, 995)));
                unchanged = p.equals(previous)
                                && p.withheld().isEmpty()
                                && p.warmups().isEmpty()
                        ? unchanged + 1
                        : 0;
                previous = p;
            }
            assertThat(unchanged).as("seed %d settles", seed).isEqualTo(3);
            PlacementInput in = s.input();
            int threads = in.instances().stream().mapToInt(Instance::threads).sum();
            for (Instance i : in.instances()) {
                int floor = in.tasks().size() * i.threads() / threads;
                assertThat(activeOn(previous, i.id()))
                        .as("seed %d, %s", seed, i.id())
                        .hasSizeBetween(floor, floor + 1);
                int statefulFloor = stateful * i.threads() / threads;
                assertThat(activeOn(previous, i.id()).stream().filter(t -> t.subtopology() == 1))
                        .as("seed %d, stateful tasks on %s", seed, i.id())
                        .hasSizeBetween(statefulFloor, statefulFloor + 1);
                Placement settled = previous;
                IntSummaryStatistics perThread = i.members().stream()
                        .mapToInt(m -> settled.members().get(m.id()).active().size())
                        .summaryStatistics();
                assertThat(perThread.getMax() - perThread.getMin())
                        .as("seed %d, threads of %s", seed, i.id())
                        .isLessThanOrEqualTo(1);
            }
        }
    }

    // ---- cooperative, determinism --------------------------------------------------------------

    @Test
    void noTaskIsGivenToAMemberWhileAnotherOwnsItNorToTwoMembers() {
        Random random = new Random(7);
        PlacementScenario s = new PlacementScenario()
                .settings(1, 2, 100)
                .statefulTasks(8, 1_000)
                .statelessTasks(5)
                .instance("a", 2)
                .instance("b", 1);
        List<String> live = new ArrayList<>(List.of("a", "b"));
        for (int round = 0; round < 40; round++) {
            if (round % 4 == 1) {
                String id = "i" + round;
                s.instance(id, 1 + random.nextInt(3));
                live.add(id);
            } else if (round % 4 == 3 && live.size() > 1) {
                s.remove(live.remove(random.nextInt(live.size())));
            }
            PlacementInput in = s.input();
            Placement p = s.rebalance();
            Set<TaskId> given = new HashSet<>();
            p.members()
                    .forEach((m, t) -> t.active().forEach(task -> {
                        assertThat(given.add(task)).as("%s given twice", task).isTrue();
                        for (Instance i : in.instances()) {
                            i.members().stream()
                                    .filter(o -> !o.id().equals(m) && o.owned().contains(task))
                                    .forEach(o -> {
                                        throw new AssertionError(
                                                task + " given to " + m + " while " + o.id() + " owns it");
                                    });
                        }
                    }));
        }
        assertThat(allGiven(s.settle(3))).hasSize(13);
    }

    @Test
    void aMoveBetweenThreadsOfOneInstanceAlsoWaitsForRevocationWithoutAStandby() {
        PlacementScenario s = new PlacementScenario()
                .statefulTasks(4, 1_000)
                .instance("a", 2)
                .owns("a", 0, task(1, 0), task(1, 1), task(1, 2), task(1, 3));
        Placement p = s.rebalance();
        assertThat(p.withheld()).hasSize(2).containsValues("a");
        assertThat(p.members().get(member("a", 1)).active()).isEmpty();
        assertThat(p.members().get(member("a", 1)).standby()).isEmpty();
        assertThat(s.rebalance().members().get(member("a", 1)).active()).hasSize(2);
    }

    @Test
    void placesTheSameWhateverTheOrderOfInstancesAndMembers() {
        PlacementScenario s = new PlacementScenario()
                .settings(1, 2, 100)
                .statefulTasks(9, 1_000)
                .statelessTasks(4)
                .instance("a", 2)
                .instance("b", 1)
                .instance("c", 3)
                .owns("a", 0, task(1, 0), task(1, 1))
                .owns("a", 1, task(1, 2), task(0, 0))
                .owns("b", 0, task(1, 3), task(1, 4), task(1, 5), task(1, 6))
                .state("c", task(1, 3), 950)
                .state("c", task(1, 7), 400);
        PlacementInput in = s.input();
        Placement expected = TaskPlacement.place(in);
        for (long seed = 0; seed < 5; seed++) {
            List<Instance> shuffled = new ArrayList<>();
            for (Instance i : in.instances()) {
                List<PlacementInput.Member> members = new ArrayList<>(i.members());
                Collections.shuffle(members, new Random(seed));
                shuffled.add(new Instance(i.id(), members, i.offsetSums()));
            }
            Collections.shuffle(shuffled, new Random(seed));
            List<TaskId> tasks = new ArrayList<>(in.tasks());
            Collections.shuffle(tasks, new Random(seed));
            Placement again = TaskPlacement.place(
                    new PlacementInput(shuffled, new HashSet<>(tasks), in.changelogEnds(), in.settings()));
            assertThat(again).isEqualTo(expected);
        }
    }
}
