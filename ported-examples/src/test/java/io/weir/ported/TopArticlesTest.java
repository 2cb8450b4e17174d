package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.ported.TopArticles.PageView;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The top-articles port on the TestDriver, with the input and expected output of Confluent's
 * {@code TopArticlesLambdaExampleTest}: per industry, article pages viewed 3, 2 and 1 times by
 * random users; the last ranking written for each industry lists them in that order.
 */
class TopArticlesTest {

    private static final String[] USERS = {"jo", "lauren", "tim", "sam"};

    private final Random random = new Random(34);

    private void views(TestDriver driver, String industry, int count, String page, long time) {
        for (int i = 0; i < count; i++) {
            driver.pipe(
                    TopArticles.PAGE_VIEWS,
                    null,
                    new PageView(USERS[random.nextInt(USERS.length)], page, industry, "ARTICLE"),
                    time);
        }
    }

    @Test
    void ranksTheArticlesOfEachIndustry() {
        long now = 1_764_000_000_000L; // one hour's window holds every view, as in the original's run
        try (TestDriver driver = TestDriver.builder(TopArticles.topology()).build()) {
            views(driver, "eng", 3, "news", now);
            views(driver, "eng", 2, "random", now);
            views(driver, "eng", 1, "stuff", now);
            views(driver, "science", 3, "index", now);
            views(driver, "science", 2, "about", now);
            views(driver, "science", 1, "help", now);
            // Not an article: filtered out.
            driver.pipe(TopArticles.PAGE_VIEWS, null, new PageView("jo", "home", "eng", "HOMEPAGE"), now);

            List<TestRecord<Windowed<String>, String>> rankings = driver.output(
                    TopArticles.TOP_NEWS_PER_INDUSTRY, Serdes.windowed(Serdes.strings()), Serdes.strings());
            Map<String, List<String>> received = new HashMap<>();
            rankings.forEach(
                    r -> received.put(r.key().key(), Arrays.asList(r.value().split("\n"))));
            assertThat(received)
                    .isEqualTo(Map.of(
                            "eng", List.of("news", "random", "stuff"),
                            "science", List.of("index", "about", "help")));
            long hour = TopArticles.WINDOW_SIZE.toMillis();
            assertThat(rankings)
                    .allSatisfy(r -> assertThat(r.key())
                            .isEqualTo(new Windowed<>(r.key().key(), now - now % hour, now - now % hour + hour)));
        }
    }
}
