package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Confluent's {@code TopArticlesLambdaExample}: views of article pages counted per page in hourly
 * tumbling windows, then, per industry and hour, the pages ranked by their counts (the top 100
 * written, one page per line). The ranking is a table aggregation: each new count of a page
 * subtracts the page's old count from its industry's ranking and adds the new one.
 *
 * <p>The original's records are Avro records in a schema registry, and its ranking a priority queue
 * with a serde of its own; here the records are JSON and the ranking a list kept sorted by count.
 */
final class TopArticles {

    static final String PAGE_VIEWS = "PageViews";
    static final String TOP_NEWS_PER_INDUSTRY = "TopNewsPerIndustry";
    static final Duration WINDOW_SIZE = Duration.ofHours(1);
    static final int TOP_N = 100;

    record PageView(String user, String page, String industry, String flags) {}

    /** A page of an industry: the key the views are counted by. */
    record Article(String page, String industry) {}

    /** A page's count in a window. */
    record ViewStats(String page, String industry, long count) {}

    /** An industry's pages in a window, most viewed first. */
    record Ranking(List<ViewStats> pages) {
        static final Comparator<ViewStats> MOST_VIEWED_FIRST =
                Comparator.comparingLong(ViewStats::count).reversed();

        Ranking with(ViewStats s) {
            List<ViewStats> next = new ArrayList<>(pages);
            next.add(s);
            next.sort(MOST_VIEWED_FIRST);
            return new Ranking(next);
        }

        Ranking without(ViewStats s) {
            List<ViewStats> next = new ArrayList<>(pages);
            next.remove(s);
            return new Ranking(next);
        }

        String top(int n) {
            StringBuilder text = new StringBuilder();
            pages.stream().limit(n).forEach(s -> text.append(s.page()).append('\n'));
            return text.toString();
        }
    }

    private TopArticles() {}

    static boolean isArticle(PageView view) {
        return view.flags() != null && view.flags().contains("ARTICLE");
    }

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.bytes(), Serdes.json(PageView.class), PAGE_VIEWS)
                .filter((ignored, view) -> isArticle(view))
                .map((ignored, view) -> KeyValue.of(new Article(view.page(), view.industry()), view))
                .withSerdes(Serdes.json(Article.class), Serdes.json(PageView.class))
                .groupByKey()
                .windowedBy(TimeWindows.of(WINDOW_SIZE))
                // The ranking follows the counts as they change, as the original's does (Kafka
                // Streams writes a window's updates as its cache flushes); Weir's default would
                // write each count once, when its hour closed.
                .emit(Emit.everyUpdate())
                .count("article-views")
                .toTable("article-view-counts")
                .groupBy(
                        (article, count) -> KeyValue.of(
                                new Windowed<>(article.key().industry(), article.start(), article.end()),
                                new ViewStats(
                                        article.key().page(), article.key().industry(), count)),
                        Serdes.windowed(Serdes.strings()),
                        Serdes.json(ViewStats.class))
                .aggregate(
                        () -> new Ranking(List.of()),
                        (industry, stats, ranking) -> ranking.with(stats),
                        (industry, stats, ranking) -> ranking.without(stats),
                        Serdes.json(Ranking.class),
                        "industry-rankings")
                .mapValues(ranking -> ranking.top(TOP_N))
                .toStream()
                .to(TOP_NEWS_PER_INDUSTRY, Serdes.windowed(Serdes.strings()), Serdes.strings());
        return b.build();
    }
}
