package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordTable;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;
import java.time.Duration;

/**
 * Apache Kafka's {@code PageViewTypedDemo}: page views (keyed by user) joined with the users'
 * profiles (a table keyed by user) to learn each view's region ({@code UNKNOWN} for a user without
 * a profile), then counted per region in hopping windows of 7 days advancing by 1 second, with 24
 * hours of grace; both inputs timed by their JSON {@code timestamp} field.
 *
 * <p>The original's one JSON serde for every type tells them apart by a {@code "_t"} property; here
 * each type has its own serde ({@code Serdes.json(Class)}), which the original names as the
 * alternative that needs no such property.
 */
final class PageViewTyped {

    static final String PAGE_VIEWS = "streams-pageview-input";
    static final String USER_PROFILES = "streams-userprofile-input";
    static final String OUTPUT = "streams-pageviewstats-typed-output";
    static final String STORE = "views-per-region";

    /** The original's windows. */
    static final TimeWindows WINDOWS =
            TimeWindows.of(Duration.ofDays(7)).advanceBy(Duration.ofSeconds(1)).allowedLateness(Duration.ofHours(24));

    record PageView(String user, String page, long timestamp) {}

    record UserProfile(String region, long timestamp) {}

    record PageViewByRegion(String user, String page, String region) {}

    record WindowedPageViewByRegion(long windowStart, String region) {}

    record RegionCount(long count, String region) {}

    private PageViewTyped() {}

    static Topology topology() {
        return topology(WINDOWS);
    }

    /** With other windows: the tests' are shorter (a record is in size / advance windows). */
    static Topology topology(TimeWindows windows) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, UserProfile> users = b.table(
                Serdes.strings(),
                Serdes.json(UserProfile.class),
                Timestamps.eventTime(UserProfile::timestamp),
                USER_PROFILES,
                "user-profiles");
        b.stream(Serdes.strings(), Serdes.json(PageView.class), Timestamps.eventTime(PageView::timestamp), PAGE_VIEWS)
                .leftJoin(
                        users,
                        (view, profile) -> new PageViewByRegion(
                                view.user(), view.page(), profile == null ? "UNKNOWN" : profile.region()))
                .map((user, view) -> KeyValue.of(view.region(), view))
                .withSerdes(Serdes.strings(), Serdes.json(PageViewByRegion.class))
                .groupByKey()
                .windowedBy(windows)
                // Without a record cache (as the original runs) Kafka Streams writes every window's
                // count at every record; Weir's default would write it once the window closed.
                .emit(Emit.everyUpdate())
                .count(STORE)
                .map((window, count) -> KeyValue.of(
                        new WindowedPageViewByRegion(window.start(), window.key()),
                        new RegionCount(count, window.key())))
                .to(OUTPUT, Serdes.json(WindowedPageViewByRegion.class), Serdes.json(RegionCount.class));
        return b.build();
    }
}
