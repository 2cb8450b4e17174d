package io.weir.internal.topology;

import io.weir.internal.topology.TopologyDescription.StoreInfo;
import io.weir.internal.topology.TopologyDescription.SubtopologyInfo;
import io.weir.serde.FormatEvolution;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What changed between two versions of an application's topology, and whether the new one can
 * replace the old by a rolling upgrade (instances restarted one by one on the same state) or needs
 * a savepoint restore with {@code --allow-dropped-state}, or a reset. Pure: compares two
 * {@link TopologyDescription}s.
 *
 * <p>The rules, where "state" means the bytes in local stores and changelogs:
 * <ul>
 *   <li><b>Safe:</b> stores, sub-topologies, input, output or repartition topics added; stateless
 *       nodes added or removed; a store's TTL or retention changed (applies from now on); a logged
 *       store turned persistent or in-memory (it restores from its changelog); a global table added,
 *       removed, or given another topic or formats (every instance reads it from its topic again,
 *       a local copy in other formats included); the Weir version.</li>
 *   <li><b>Needs a savepoint or reset:</b> a store removed (or renamed: removed plus added), its
 *       state would be abandoned; a store's kind or key or value format changed, so the new code
 *       cannot read what the old one wrote ({@link #incompatibleStores()} when that state
 *       survives a restart: the store was persistent or logged); a store's window size changed;
 *       a changelog added to or dropped from an existing store (the changelog would not hold what
 *       the store holds); an unlogged store moved between memory and disk (its state is lost); a
 *       store owned by another sub-topology (its tasks, and so where its state lives, change); a
 *       repartition topic removed (records in flight in it are lost) or read or written by another
 *       sub-topology; a repartition topic's fixed partition count changed (the topic must be
 *       created anew: the start refuses one of another count). A count fixed where it was derived,
 *       or the reverse, is listed; the start checks it against the topic.</li>
 * </ul>
 * Sub-topologies are compared by id (ids follow the order sources were added, so a source added
 * before the others renumbers the sub-topologies after it, and moves their stores).
 */
public final class TopologyDiff {

    /** Whether a rolling upgrade is enough. */
    public enum Verdict {
        /** Identical, or only changes a rolling upgrade handles. */
        SAFE,
        /** Restore a savepoint ({@code --allow-dropped-state} for what the new topology drops) or reset. */
        NEEDS_SAVEPOINT_OR_RESET
    }

    /**
     * One property of a store that changed.
     *
     * @param unsafe         the change needs a savepoint or reset
     * @param unreadable     the new topology cannot read the state kept under the old one
     */
    public record StoreChange(
            String store, String property, String before, String after, boolean unsafe, boolean unreadable) {
        @Override
        public String toString() {
            return "store " + store + ": " + property + " " + before + " -> " + after;
        }
    }

    private final TopologyDescription before;
    private final TopologyDescription after;
    private final List<String> storesAdded = new ArrayList<>();
    private final List<String> storesRemoved = new ArrayList<>();
    private final List<StoreChange> storesChanged = new ArrayList<>();
    private final Added changelogs;
    private final Added repartitionTopics;
    private final Added sourceTopics;
    private final Added sinkTopics;
    private final Added nodes;
    private final List<String> changes = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();

    /** What was added and removed of one kind of name. */
    private record Added(List<String> added, List<String> removed) {
        static Added of(Collection<String> before, Collection<String> after) {
            return new Added(
                    after.stream().filter(n -> !before.contains(n)).distinct().toList(),
                    before.stream().filter(n -> !after.contains(n)).distinct().toList());
        }
    }

    private TopologyDiff(TopologyDescription before, TopologyDescription after) {
        this.before = Objects.requireNonNull(before, "before");
        this.after = Objects.requireNonNull(after, "after");
        compareStores();
        compareGlobalTables();
        changelogs = Added.of(changelogs(before), changelogs(after));
        repartitionTopics = Added.of(
                all(before, SubtopologyInfo::repartitionTopicsRead),
                all(after, SubtopologyInfo::repartitionTopicsRead));
        sourceTopics = Added.of(all(before, SubtopologyInfo::sourceTopics), all(after, SubtopologyInfo::sourceTopics));
        sinkTopics = Added.of(all(before, SubtopologyInfo::sinkTopics), all(after, SubtopologyInfo::sinkTopics));
        nodes = Added.of(all(before, SubtopologyInfo::nodes), all(after, SubtopologyInfo::nodes));
        list("changelog", changelogs, false, null);
        list("repartition topic", repartitionTopics, true, "records in flight in it would be lost");
        compareRepartitionOwners();
        list("source topic", sourceTopics, false, null);
        list("sink topic", sinkTopics, false, null);
        list("node", nodes, false, null);
        if (before.subtopologies().size() != after.subtopologies().size()) {
            changes.add("sub-topologies: " + before.subtopologies().size() + " -> "
                    + after.subtopologies().size());
        }
        if (!Objects.equals(before.weirVersion(), after.weirVersion())) {
            changes.add("weir version: " + before.weirVersion() + " -> " + after.weirVersion());
        }
    }

    /** The differences from {@code before} (the running or recorded version) to {@code after} (the new one). */
    public static TopologyDiff between(TopologyDescription before, TopologyDescription after) {
        return new TopologyDiff(before, after);
    }

    private void compareStores() {
        for (StoreInfo a : after.stores()) {
            if (before.store(a.name()) == null) {
                storesAdded.add(a.name());
                changes.add("store " + a.name() + ": added (" + a.kind() + ")");
            }
        }
        for (StoreInfo b : before.stores()) {
            StoreInfo a = after.store(b.name());
            if (a == null) {
                storesRemoved.add(b.name());
                changes.add("store " + b.name() + ": removed");
                reasons.add("store " + b.name() + " was removed (or renamed): its state would be abandoned");
                continue;
            }
            boolean survives = b.persistent() || b.logged();
            boolean unlogged = !b.logged() || !a.logged();
            change(
                    b,
                    "kind",
                    b.kind(),
                    a.kind(),
                    true,
                    survives,
                    "a " + a.kind() + " store cannot read a " + b.kind() + " store's state");
            formatChange(b, "key format", b.keyFormat(), a.keyFormat(), survives, "keys");
            formatChange(b, "value format", b.valueFormat(), a.valueFormat(), survives, "values");
            change(
                    b,
                    "window size ms",
                    b.windowSizeMs(),
                    a.windowSizeMs(),
                    true,
                    false,
                    "the stored windows have another size");
            change(
                    b,
                    "logged",
                    b.logged(),
                    a.logged(),
                    true,
                    false,
                    "its changelog would not hold what the store holds");
            change(
                    b,
                    "persistent",
                    b.persistent(),
                    a.persistent(),
                    unlogged,
                    false,
                    "an unlogged store's state is lost when it moves between memory and disk");
            change(
                    b,
                    "sub-topology",
                    b.subtopology(),
                    a.subtopology(),
                    true,
                    false,
                    "other tasks would own it, so its local state would not be found where it is kept");
            change(b, "retention ms", b.retentionMs(), a.retentionMs(), false, false, null);
            change(b, "ttl ms", b.ttlMs(), a.ttlMs(), false, false, null);
        }
    }

    /** Global tables: every change is listed and safe, since each instance rebuilds them from their topics. */
    private void compareGlobalTables() {
        Map<String, TopologyDescription.GlobalTableInfo> old = new LinkedHashMap<>();
        before.globalTables().forEach(g -> old.put(g.store(), g));
        for (TopologyDescription.GlobalTableInfo a : after.globalTables()) {
            TopologyDescription.GlobalTableInfo b = old.remove(a.store());
            if (b == null) {
                changes.add("global table " + a.store() + ": added (topic " + a.topic() + ")");
                continue;
            }
            globalChange(a.store(), "topic", b.topic(), a.topic());
            globalChange(
                    a.store(), "key format", FormatChanges.label(b.keyFormat()), FormatChanges.label(a.keyFormat()));
            globalChange(
                    a.store(),
                    "value format",
                    FormatChanges.label(b.valueFormat()),
                    FormatChanges.label(a.valueFormat()));
        }
        old.keySet().forEach(name -> changes.add("global table " + name + ": removed"));
    }

    private void globalChange(String store, String property, String old, String now) {
        if (!Objects.equals(old, now)) {
            changes.add("global table " + store + ": " + property + " " + old + " -> " + now
                    + " (read again from its topic)");
        }
    }

    /**
     * A changed serde format is safe when the new serde reads what the old one wrote (an evolution
     * such as a schema with a field added under its compatibility rules, see {@link FormatChanges}).
     */
    private void formatChange(StoreInfo b, String property, String old, String now, boolean survives, String what) {
        if (Objects.equals(old, now)) {
            return;
        }
        FormatEvolution.Verdict v = FormatChanges.judge(old, now);
        String shownOld = FormatChanges.label(old);
        String shownNow = FormatChanges.label(now);
        if (v.readable()) {
            StoreChange c = new StoreChange(b.name(), property, shownOld, shownNow, false, false);
            storesChanged.add(c);
            changes.add(c + " (readable: " + v.reason() + ")");
            return;
        }
        change(
                b,
                property,
                shownOld,
                shownNow,
                true,
                survives,
                "the new " + what.replaceAll("s$", "") + " serde cannot read the " + what + " stored by the old one"
                        + ("another format".equals(v.reason()) ? "" : " (" + v.reason() + ")"));
    }

    private void change(
            StoreInfo b, String property, Object old, Object now, boolean unsafe, boolean unreadable, String why) {
        if (Objects.equals(old, now)) {
            return;
        }
        StoreChange c = new StoreChange(
                b.name(), property, String.valueOf(old), String.valueOf(now), unsafe, unsafe && unreadable);
        storesChanged.add(c);
        changes.add(c.toString());
        if (unsafe) {
            reasons.add("store " + b.name() + " changed its " + property + " (" + old + " -> " + now + "): " + why);
        }
    }

    private void list(String what, Added a, boolean removalUnsafe, String why) {
        a.added().forEach(n -> changes.add(what + " " + n + ": added"));
        for (String n : a.removed()) {
            changes.add(what + " " + n + ": removed");
            if (removalUnsafe) {
                reasons.add(what + " " + n + " was removed: " + why);
            }
        }
    }

    private void compareRepartitionOwners() {
        compareOwners("read", SubtopologyInfo::repartitionTopicsRead);
        compareOwners("written", SubtopologyInfo::repartitionTopicsWritten);
        compareRepartitionPartitions();
    }

    /**
     * A repartition topic's fixed partition count changed: the topic on the cluster keeps its count,
     * which the new version refuses at start-up, and the records in it are in the partitions of the
     * old count. A count given or dropped (derived from the inputs instead) may or may not match
     * what the topic has: listed, and checked against the topic at start-up.
     */
    private void compareRepartitionPartitions() {
        Map<String, Integer> old = before.fixedPartitions();
        Map<String, Integer> now = after.fixedPartitions();
        Set<String> topics = new LinkedHashSet<>(old.keySet());
        topics.addAll(now.keySet());
        Set<String> kept = new LinkedHashSet<>(all(before, SubtopologyInfo::repartitionTopicsRead));
        kept.retainAll(all(after, SubtopologyInfo::repartitionTopicsRead));
        for (String topic : topics) {
            Integer b = old.get(topic);
            Integer a = now.get(topic);
            if (!kept.contains(topic) || Objects.equals(a, b)) {
                continue;
            }
            changes.add("repartition topic " + topic + ": partitions " + (b == null ? "derived" : b) + " -> "
                    + (a == null ? "derived" : a));
            if (a != null && b != null) {
                reasons.add("repartition topic " + topic + " has " + b + " partitions and the new version fixes " + a
                        + ": the topic must be created anew (a savepoint restore or a reset does)");
            }
        }
    }

    private void compareOwners(String verb, Function<SubtopologyInfo, List<String>> topics) {
        Map<String, Integer> old = owners(before, topics);
        Map<String, Integer> now = owners(after, topics);
        old.forEach((topic, id) -> {
            Integer n = now.get(topic);
            if (n != null && !n.equals(id)) {
                changes.add("repartition topic " + topic + ": " + verb + " by sub-topology " + id + " -> " + n);
                reasons.add("repartition topic " + topic + " is " + verb + " by sub-topology " + n + " instead of " + id
                        + ": its tasks and their state change");
            }
        });
    }

    private static Map<String, Integer> owners(TopologyDescription d, Function<SubtopologyInfo, List<String>> topics) {
        Map<String, Integer> owners = new LinkedHashMap<>();
        d.subtopologies().forEach(st -> topics.apply(st).forEach(t -> owners.put(t, st.id())));
        return owners;
    }

    private static List<String> changelogs(TopologyDescription d) {
        return d.stores().stream()
                .map(StoreInfo::changelogTopic)
                .filter(Objects::nonNull)
                .toList();
    }

    private static Set<String> all(TopologyDescription d, Function<SubtopologyInfo, List<String>> names) {
        Set<String> all = new LinkedHashSet<>();
        d.subtopologies().forEach(st -> all.addAll(names.apply(st)));
        return all;
    }

    public TopologyDescription before() {
        return before;
    }

    public TopologyDescription after() {
        return after;
    }

    /** True when nothing differs (the Weir version included). */
    public boolean identical() {
        return changes.isEmpty();
    }

    public Verdict verdict() {
        return reasons.isEmpty() ? Verdict.SAFE : Verdict.NEEDS_SAVEPOINT_OR_RESET;
    }

    /** Why a savepoint or reset is needed; empty when {@link Verdict#SAFE}. */
    public List<String> reasons() {
        return List.copyOf(reasons);
    }

    /** Every difference, one line each, stores first. */
    public List<String> changes() {
        return List.copyOf(changes);
    }

    public List<String> storesAdded() {
        return List.copyOf(storesAdded);
    }

    public List<String> storesRemoved() {
        return List.copyOf(storesRemoved);
    }

    /** Every changed property of a store in both versions. */
    public List<StoreChange> storesChanged() {
        return List.copyOf(storesChanged);
    }

    /**
     * The stores in both versions whose kept state the new topology cannot read: kind or key or
     * value format changed, and the state outlives a restart (the store was persistent or logged).
     */
    public List<String> incompatibleStores() {
        return storesChanged.stream()
                .filter(StoreChange::unreadable)
                .map(StoreChange::store)
                .distinct()
                .toList();
    }

    public List<String> changelogsAdded() {
        return changelogs.added();
    }

    public List<String> changelogsRemoved() {
        return changelogs.removed();
    }

    public List<String> repartitionTopicsAdded() {
        return repartitionTopics.added();
    }

    public List<String> repartitionTopicsRemoved() {
        return repartitionTopics.removed();
    }

    public List<String> sourceTopicsAdded() {
        return sourceTopics.added();
    }

    public List<String> sourceTopicsRemoved() {
        return sourceTopics.removed();
    }

    public List<String> sinkTopicsAdded() {
        return sinkTopics.added();
    }

    public List<String> sinkTopicsRemoved() {
        return sinkTopics.removed();
    }

    /**
     * For people: the changes, then the verdict and its reasons.
     *
     * <pre>
     * Topology of wc: old (weir 0.1.0) -&gt; new (weir 0.1.0)
     *   store word-counts: value format long -&gt; string
     *   node filter-7: added
     * Verdict: NEEDS_SAVEPOINT_OR_RESET
     *   - store word-counts changed its value format (long -&gt; string): the new value serde cannot ...
     * </pre>
     */
    public String report() {
        StringBuilder sb = new StringBuilder("Topology of ")
                .append(after.applicationId())
                .append(": old (weir ")
                .append(before.weirVersion())
                .append(") -> new (weir ")
                .append(after.weirVersion())
                .append(")\n");
        if (changes.isEmpty()) {
            sb.append("  no changes\n");
        }
        changes.forEach(c -> sb.append("  ").append(c).append('\n'));
        sb.append("Verdict: ").append(verdict()).append('\n');
        reasons.forEach(r -> sb.append("  - ").append(r).append('\n'));
        return sb.toString();
    }

    @Override
    public String toString() {
        return report();
    }
}
