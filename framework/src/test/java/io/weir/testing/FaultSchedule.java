package io.weir.testing;

import io.weir.testkit.TestSizes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The plan of a fault suite run, made from a seed: which faults happen, in which order, to which
 * application instance, and at which point of the input. The same seed and settings always give
 * the same plan, so a failure can be replayed ({@code -Dweir.fault.seed=N}); only timing (how far
 * the application got when a fault struck) varies between runs.
 *
 * <p>Three instances {@code i1..i3} take part. With {@link Settings#scale()} the run starts with
 * {@code i1} alone, scales out to three and, near the end, back in to one (the other two leave the
 * group: one by SIGTERM, one by {@code POST /admin/leave}); without it all three run throughout.
 * Between the scale steps, in seeded order: SIGKILLs of a random running instance, restarted with
 * its instance id and state (at once, or after the others took its tasks over), SIGSTOPs of one
 * instance for longer than the session timeout (a zombie), and broker bounces (SIGKILL the broker
 * leading a partition of the input or of the store's changelog, restart it).
 *
 * <p>The input is cut into {@code steps + 1} equal segments. Step {@code i} strikes once the
 * producer has sent at least {@link Planned#trigger()} records (a seeded point in the second half
 * of segment {@code i}) and the group has settled after the previous step; the producer is held
 * at the end of segment {@code i + 1} until the next step, so records flow during every fault.
 */
public record FaultSchedule(long seed, Settings settings, List<Planned> steps) {

    /** The instance ids, in start order. */
    public static final List<String> INSTANCES = List.of("i1", "i2", "i3");

    public FaultSchedule {
        steps = List.copyOf(steps);
    }

    /**
     * Sizes and fault counts; {@link #fromSystemProperties()} reads {@code weir.fault.*} with the
     * CI schedule as defaults.
     *
     * @param records records of input
     * @param keys    distinct keys
     * @param rate    records a second the producer sends while it may
     * @param kills   SIGKILLs of an instance, each followed by its restart
     * @param zombies SIGSTOPs of an instance for longer than the session timeout, then SIGCONT
     * @param bounces SIGKILLs of a partition leader's broker, each followed by its restart
     * @param scale   start with one instance, scale out to three, and back in to one
     */
    public record Settings(int records, int keys, int rate, int kills, int zombies, int bounces, boolean scale) {

        /**
         * The default build's schedule: every kind of fault once (a SIGKILL restarted at once, one
         * restarted after the others took its tasks, a zombie, a broker bounce, scale out and in).
         */
        public static final Settings CI = new Settings(60_000, 6_000, 3_000, 2, 1, 1, true);

        /** The full schedule ({@code mvn verify -Pfull}): ten SIGKILLs and two bounces over a million records. */
        public static final Settings FULL = new Settings(1_000_000, 100_000, 5_000, 10, 1, 2, true);

        public Settings {
            if (records < keys || keys < 1 || rate < 1 || kills < 0 || zombies < 0 || bounces < 0) {
                throw new IllegalArgumentException("bad fault suite settings: records " + records + ", keys "
                        + keys + ", rate " + rate + ", kills " + kills + ", zombies " + zombies + ", bounces "
                        + bounces);
            }
        }

        /**
         * {@code weir.fault.records, .keys, .rate, .kills, .zombies, .bounces, .scale}; unset ones from
         * {@link #FULL} under {@code -Pfull} ({@link TestSizes#full()}), else from {@link #CI}.
         */
        public static Settings fromSystemProperties() {
            Settings base = TestSizes.full() ? FULL : CI;
            return new Settings(
                    Integer.getInteger("weir.fault.records", base.records),
                    Integer.getInteger("weir.fault.keys", base.keys),
                    Integer.getInteger("weir.fault.rate", base.rate),
                    Integer.getInteger("weir.fault.kills", base.kills),
                    Integer.getInteger("weir.fault.zombies", base.zombies),
                    Integer.getInteger("weir.fault.bounces", base.bounces),
                    Boolean.parseBoolean(System.getProperty("weir.fault.scale", Boolean.toString(base.scale))));
        }

        @Override
        public String toString() {
            return "records=" + records + " keys=" + keys + " rate=" + rate + "/s kills=" + kills + " zombies="
                    + zombies + " bounces=" + bounces + " scale=" + scale;
        }
    }

    /** One fault or scale step. */
    public sealed interface Step permits ScaleOut, ScaleIn, Kill, Zombie, BrokerBounce {}

    /** Start these instances (fresh state). */
    public record ScaleOut(List<String> instances) implements Step {
        @Override
        public String toString() {
            return "scale out: start " + String.join(", ", instances);
        }
    }

    /** Stop these instances for good, leaving the group: the first by SIGTERM, the next by POST /admin/leave. */
    public record ScaleIn(List<String> instances) implements Step {
        @Override
        public String toString() {
            return "scale in: stop " + String.join(", ", instances) + " (SIGTERM, then /admin/leave)";
        }
    }

    /** SIGKILL an instance and start it again with its id and state: at once, or once the others own its tasks. */
    public record Kill(String instance, boolean afterTakeover) implements Step {
        @Override
        public String toString() {
            return "SIGKILL " + instance + ", restart "
                    + (afterTakeover ? "once the others took its tasks" : "at once");
        }
    }

    /** SIGSTOP an instance until the others own its tasks and the session timeout has passed, then SIGCONT. */
    public record Zombie(String instance) implements Step {
        @Override
        public String toString() {
            return "SIGSTOP " + instance + " past the session timeout, then SIGCONT (a zombie)";
        }
    }

    /** SIGKILL the broker leading this partition of the input (or of the changelog), then restart it. */
    public record BrokerBounce(boolean changelog, int partition) implements Step {
        @Override
        public String toString() {
            return "bounce the leader of " + (changelog ? "changelog" : "input") + " partition " + partition;
        }
    }

    /** A step, the input record count that triggers it, and the count the producer may reach until the next one. */
    public record Planned(Step step, long trigger, long holdAt) {}

    /** The instances running before the first step. */
    public List<String> initialInstances() {
        return settings.scale ? INSTANCES.subList(0, 1) : INSTANCES;
    }

    /** How far the producer may go before the first step. */
    public long firstHold() {
        return steps.isEmpty() ? settings.records : settings.records / (steps.size() + 1);
    }

    /** The plan for {@code seed}; {@code partitions} is the input's partition count. */
    public static FaultSchedule plan(long seed, Settings settings, int partitions) {
        Random random = new Random(Long.rotateLeft(seed, 17) ^ 0x9E3779B97F4A7C15L); // not the workload's sequence
        List<Character> kinds = new ArrayList<>();
        for (int i = 0; i < settings.kills; i++) {
            kinds.add('K');
        }
        for (int i = 0; i < settings.zombies; i++) {
            kinds.add('Z');
        }
        for (int i = 0; i < settings.bounces; i++) {
            kinds.add('B');
        }
        Collections.shuffle(kinds, random);
        if (settings.scale) {
            // Scale out first or after the first fault, scale in last or before the last one;
            // a zombie needs another instance to take its tasks, so it stays between the two.
            int out = kinds.isEmpty() || kinds.get(0) == 'Z' ? 0 : random.nextInt(2);
            kinds.add(out, 'O');
            int last = kinds.size() - 1;
            int in = kinds.get(last) == 'Z' || kinds.get(last) == 'O' ? kinds.size() : kinds.size() - random.nextInt(2);
            kinds.add(in, 'I');
            if (settings.kills > 0
                    && kinds.subList(kinds.indexOf('O'), kinds.indexOf('I')).indexOf('K') < 0) {
                // Every kill would strike a lone instance: none could restart after a takeover.
                kinds.remove(Character.valueOf('O'));
                kinds.remove(Character.valueOf('I'));
                kinds.add(0, 'O');
                kinds.add('I');
            }
        }
        int killsLeft = settings.kills;
        boolean atOnce = false;
        boolean takeover = false;
        List<String> running = new ArrayList<>(settings.scale ? INSTANCES.subList(0, 1) : INSTANCES);
        List<Step> steps = new ArrayList<>();
        for (char kind : kinds) {
            steps.add(
                    switch (kind) {
                        case 'O' -> {
                            List<String> add = new ArrayList<>(INSTANCES.subList(running.size(), INSTANCES.size()));
                            running.addAll(add);
                            yield new ScaleOut(add);
                        }
                        case 'I' -> {
                            List<String> stop = new ArrayList<>(running);
                            stop.remove(random.nextInt(stop.size()));
                            running.removeAll(stop);
                            yield new ScaleIn(stop);
                        }
                        case 'K' -> {
                            // Both kinds of restart happen once before chance decides: after a takeover first
                            // (it needs a second instance, which a later kill may not have), then at once.
                            killsLeft--;
                            boolean afterTakeover;
                            if (running.size() < 2) {
                                afterTakeover = false;
                            } else if (!takeover && (atOnce || killsLeft > 0)) {
                                afterTakeover = true;
                            } else if (!atOnce) {
                                afterTakeover = false;
                            } else {
                                afterTakeover = random.nextInt(3) == 0;
                            }
                            atOnce |= !afterTakeover;
                            takeover |= afterTakeover;
                            yield new Kill(running.get(random.nextInt(running.size())), afterTakeover);
                        }
                        case 'Z' -> new Zombie(running.get(random.nextInt(running.size())));
                        case 'B' -> new BrokerBounce(random.nextBoolean(), random.nextInt(partitions));
                        default -> throw new IllegalStateException("kind " + kind);
                    });
        }
        long segment = settings.records / (steps.size() + 1);
        List<Planned> planned = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            long end = (i + 1) * segment;
            long trigger = end - (long) (random.nextDouble() * segment / 2);
            long holdAt = i == steps.size() - 1 ? settings.records : (i + 2) * segment;
            planned.add(new Planned(steps.get(i), trigger, holdAt));
        }
        return new FaultSchedule(seed, settings, planned);
    }

    /** One line per step, for the log. */
    public String describe() {
        StringBuilder b = new StringBuilder("start " + String.join(", ", initialInstances()));
        for (int i = 0; i < steps.size(); i++) {
            Planned p = steps.get(i);
            b.append(String.format("%n  step %d at input record %d: %s", i + 1, p.trigger(), p.step()));
        }
        return b.toString();
    }
}
