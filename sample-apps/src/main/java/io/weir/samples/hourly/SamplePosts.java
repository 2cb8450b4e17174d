package io.weir.samples.hourly;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The posts the hourly-counts sample feeds: four hashtags over two hours from {@code base} (a
 * whole hour), at fixed minutes, then the first post of the third hour for each hashtag, which
 * moves every partition's watermark to the end of the second hour and so closes both. Fed in two
 * phases, each in time order: the posts of the first half hour, then the rest.
 *
 * <ul>
 *   <li>hour 1: {@code #weir} 14 posts, the 11th at 0:25 (in phase 1); {@code #flink} 11 posts,
 *       the 11th at 0:57; {@code #kafka} 8; {@code #storm} 2;</li>
 *   <li>hour 2: {@code #kafka} 12 posts, the 11th at 1:52; {@code #weir} 6; {@code #flink} 3.</li>
 * </ul>
 */
final class SamplePosts {

    /** Phase 1 feeds the posts up to this time after base (inclusive). */
    static final Duration PHASE_ONE_UNTIL = Duration.ofMinutes(30);

    private static final int[] WEIR_1 = {2, 5, 7, 9, 12, 14, 16, 18, 20, 22, 25, 38, 47, 55};
    private static final int[] FLINK_1 = {4, 8, 13, 19, 27, 31, 36, 42, 48, 53, 57};
    private static final int[] KAFKA_1 = {3, 10, 17, 24, 33, 41, 49, 58};
    private static final int[] STORM_1 = {15, 44};
    private static final int[] KAFKA_2 = {1, 6, 11, 15, 21, 26, 30, 34, 39, 45, 52, 56};
    private static final int[] WEIR_2 = {8, 19, 28, 37, 46, 59};
    private static final int[] FLINK_2 = {14, 29, 50};

    private final long base;
    private final List<Post> posts = new ArrayList<>();

    SamplePosts(long base) {
        if (base % Duration.ofHours(1).toMillis() != 0) {
            throw new IllegalArgumentException("the posts start at a whole hour, not " + base);
        }
        this.base = base;
        add("#weir", 0, WEIR_1);
        add("#flink", 0, FLINK_1);
        add("#kafka", 0, KAFKA_1);
        add("#storm", 0, STORM_1);
        add("#kafka", 1, KAFKA_2);
        add("#weir", 1, WEIR_2);
        add("#flink", 1, FLINK_2);
        posts.sort(Comparator.comparingLong(Post::postedAt));
        for (String hashtag : List.of("#weir", "#flink", "#kafka", "#storm")) {
            posts.add(new Post(hashtag, "user-0", closingTime()));
        }
    }

    private void add(String hashtag, int hour, int[] minutes) {
        for (int i = 0; i < minutes.length; i++) {
            long at = base + Duration.ofHours(hour).plusMinutes(minutes[i]).toMillis();
            posts.add(new Post(hashtag, "user-" + (i % 5 + 1), at));
        }
    }

    long base() {
        return base;
    }

    /** Every post in the order fed: by time, the closing posts last. */
    List<Post> all() {
        return List.copyOf(posts);
    }

    /** The posts of phase 1: those of the first half hour. */
    List<Post> phaseOne() {
        return posts.stream()
                .filter(p -> p.postedAt() <= base + PHASE_ONE_UNTIL.toMillis())
                .toList();
    }

    /** The posts of phase 2: the rest, in the order fed. */
    List<Post> phaseTwo() {
        return posts.stream()
                .filter(p -> p.postedAt() > base + PHASE_ONE_UNTIL.toMillis())
                .toList();
    }

    /** When the closing posts were posted: the start of the third hour. */
    long closingTime() {
        return base + Duration.ofHours(2).toMillis();
    }
}
