package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.dsl.TimeWindows;
import io.weir.ported.PageViewModel.Count;
import io.weir.ported.PageViewModel.Event;
import io.weir.ported.PageViewTyped.PageView;
import io.weir.ported.PageViewTyped.RegionCount;
import io.weir.ported.PageViewTyped.UserProfile;
import io.weir.ported.PageViewTyped.WindowedPageViewByRegion;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The typed page-view port on the TestDriver. Kafka's demo has no test: the input
 * ({@link PageViewModel#EVENTS}) is this test's own, and the expected counts are worked out by
 * {@link PageViewModel}.
 *
 * <p>The windows are scaled down, 5 s advancing by 1 s with 2 s of grace, for the original's 7
 * days advancing by 1 s with 24 h: there a view falls in 604,800 windows and writes as many
 * counts (the TestDriver took 19 s for a single view with them), the same arithmetic as the
 * original's on Kafka Streams.
 */
class PageViewTypedTest {

    static final TimeWindows TEST_WINDOWS = TimeWindows.of(Duration.ofSeconds(5))
            .advanceBy(Duration.ofSeconds(1))
            .allowedLateness(Duration.ofSeconds(2));

    @Test
    void countsViewsPerRegionInHoppingWindows() {
        try (TestDriver driver =
                TestDriver.builder(PageViewTyped.topology(TEST_WINDOWS)).build()) {
            for (Event e : PageViewModel.EVENTS) {
                if (e.profile()) {
                    driver.pipe(
                            PageViewTyped.USER_PROFILES,
                            e.user(),
                            new UserProfile(e.regionOrPage(), e.timestamp()),
                            0L);
                } else {
                    driver.pipe(
                            PageViewTyped.PAGE_VIEWS,
                            e.user(),
                            new PageView(e.user(), e.regionOrPage(), e.timestamp()),
                            0L);
                }
            }
            List<Count> counts = driver
                    .output(
                            PageViewTyped.OUTPUT,
                            Serdes.json(WindowedPageViewByRegion.class),
                            Serdes.json(RegionCount.class))
                    .stream()
                    .map(r -> {
                        assertThat(r.value().region()).isEqualTo(r.key().region());
                        return new Count(
                                r.key().windowStart(),
                                r.key().region(),
                                r.value().count());
                    })
                    .toList();
            assertThat(counts).containsExactlyElementsOf(PageViewModel.expected(5_000, 1_000));
        }
    }
}
