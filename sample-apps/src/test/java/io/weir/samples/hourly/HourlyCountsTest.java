package io.weir.samples.hourly;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HourlyCountsTest {

    private static final long BASE = Instant.parse("2024-06-01T10:00:00Z").toEpochMilli();
    private static final long HOUR = 3_600_000;

    @Test
    void theModelCountsEachHourAndAlertsWhereACountPassesTheThreshold() {
        HourlyCounts.Expected expected = HourlyCounts.expected(new SamplePosts(BASE), 10);

        assertThat(expected.counts())
                .containsEntry(hour("#weir", 0), 14L)
                .containsEntry(hour("#flink", 0), 11L)
                .containsEntry(hour("#kafka", 0), 8L)
                .containsEntry(hour("#storm", 0), 2L)
                .containsEntry(hour("#kafka", 1), 12L)
                .containsEntry(hour("#weir", 1), 6L)
                .containsEntry(hour("#flink", 1), 3L)
                .hasSize(7);
        assertThat(expected.alerts())
                .containsOnlyKeys(hour("#weir", 0), hour("#flink", 0), hour("#kafka", 1))
                .containsValue(11L);
        assertThat(expected.crossedAt()).containsEntry(hour("#weir", 0), BASE + 25 * 60_000L);
        assertThat(expected.phaseOne()).containsOnlyKeys(hour("#weir", 0));
    }

    @Test
    void aLowerThresholdAlertsForMoreHours() {
        HourlyCounts.Expected expected = HourlyCounts.expected(new SamplePosts(BASE), 5);
        assertThat(expected.alerts())
                .containsOnlyKeys(
                        hour("#weir", 0), hour("#flink", 0), hour("#kafka", 0), hour("#kafka", 1), hour("#weir", 1))
                .containsValue(6L);
    }

    @Test
    void theAlertComesWhileTheHourIsOpenAndTheCountWhenItCloses() {
        SamplePosts posts = new SamplePosts(BASE);
        HourlyCounts.Expected expected = HourlyCounts.expected(posts, 10);
        try (TestDriver driver = TestDriver.builder(HourlyCounts.topology("posts", "counts", "alerts", 10))
                .partitions("posts", 4)
                .inMemoryStores()
                .build()) {
            pipe(driver, posts.phaseOne());
            List<TestRecord<Windowed<String>, Long>> firstAlerts = driver.output("alerts", windowed(), Serdes.longs());
            assertThat(firstAlerts).extracting(TestRecord::key).containsExactly(hour("#weir", 0));
            assertThat(firstAlerts.get(0).value()).isEqualTo(11L);
            assertThat(firstAlerts.get(0).headers().lastString("weir.pane")).isEqualTo("early");
            assertThat(driver.output("counts", windowed(), Serdes.longs())).isEmpty();

            pipe(driver, posts.phaseTwo());
            assertThat(onceEach(driver.allOutput("alerts", windowed(), Serdes.longs()), "early"))
                    .isEqualTo(expected.alerts());
            assertThat(onceEach(driver.allOutput("counts", windowed(), Serdes.longs()), "final"))
                    .isEqualTo(expected.counts());
        }
    }

    @Test
    void postsAreInTimeOrderInTwoPhasesWithTheClosingPostsLast() {
        SamplePosts posts = new SamplePosts(BASE);
        assertThat(posts.phaseOne()).allMatch(p -> p.postedAt() <= BASE + 30 * 60_000L);
        assertThat(posts.phaseOne().size() + posts.phaseTwo().size())
                .isEqualTo(posts.all().size());
        assertThat(posts.all()).extracting(Post::postedAt).isSorted();
        assertThat(posts.all().subList(posts.all().size() - 4, posts.all().size()))
                .allMatch(p -> p.postedAt() == BASE + 2 * HOUR);
    }

    @Test
    void alertsNameThePostThatPassedTheThreshold() {
        assertThat(List.of(1L, 2L, 3L, 4L, 11L, 12L, 13L, 21L, 22L, 111L))
                .extracting(HourlyCountsApp::ordinal)
                .containsExactly("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th");
    }

    private static void pipe(TestDriver driver, List<Post> posts) {
        long sent = System.currentTimeMillis();
        for (Post p : posts) {
            driver.pipe("posts", p.hashtag(), p, sent++);
        }
    }

    private static Map<Windowed<String>, Long> onceEach(List<TestRecord<Windowed<String>, Long>> records, String pane) {
        Map<Windowed<String>, Long> results = new HashMap<>();
        for (TestRecord<Windowed<String>, Long> r : records) {
            assertThat(r.headers().lastString("weir.pane")).isEqualTo(pane);
            assertThat(results.put(r.key(), r.value()))
                    .as("%s emitted twice", r.key())
                    .isNull();
        }
        return results;
    }

    private static Serde<Windowed<String>> windowed() {
        return Serdes.windowed(Serdes.strings());
    }

    private static Windowed<String> hour(String hashtag, int hour) {
        return new Windowed<>(hashtag, BASE + hour * HOUR, BASE + (hour + 1) * HOUR);
    }
}
