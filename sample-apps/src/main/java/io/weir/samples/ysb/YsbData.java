package io.weir.samples.ysb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The Yahoo Streaming Benchmark's data, generated deterministically from a seed: {@code campaigns}
 * campaigns of 10 ads each (the compacted topic of ad to campaign), and ad events that pick an ad,
 * a user, a page and an event type at random, as the benchmark's generator does.
 */
public final class YsbData {

    public static final int ADS_PER_CAMPAIGN = 10;
    private static final String[] AD_TYPES = {"banner", "modal", "sponsored-search", "mail", "mobile"};
    private static final String[] EVENT_TYPES = {"view", "click", "purchase"};

    private final List<String> ads = new ArrayList<>();
    private final Map<String, String> campaignOfAd = new TreeMap<>();
    private final Random random;

    public YsbData(int campaigns, long seed) {
        if (campaigns < 1) {
            throw new IllegalArgumentException("at least one campaign, not " + campaigns);
        }
        Random ids = new Random(seed);
        for (int c = 0; c < campaigns; c++) {
            String campaign = uuid(ids);
            for (int a = 0; a < ADS_PER_CAMPAIGN; a++) {
                String ad = uuid(ids);
                ads.add(ad);
                campaignOfAd.put(ad, campaign);
            }
        }
        this.random = new Random(seed + 1);
    }

    private static String uuid(Random random) {
        return new java.util.UUID(random.nextLong(), random.nextLong()).toString();
    }

    /** Ad id to campaign id: the records of the campaigns topic. */
    public Map<String, String> campaignOfAd() {
        return campaignOfAd;
    }

    /** The next random event, at {@code eventTime}. */
    public AdEvent next(long eventTime) {
        return new AdEvent(
                "user-" + random.nextInt(100),
                "page-" + random.nextInt(100),
                ads.get(random.nextInt(ads.size())),
                AD_TYPES[random.nextInt(AD_TYPES.length)],
                EVENT_TYPES[random.nextInt(EVENT_TYPES.length)],
                eventTime,
                "1.2.3.4");
    }

    /** An event of no campaign at {@code eventTime}: moves event time on without counting anywhere. */
    public static AdEvent tick(long eventTime) {
        return new AdEvent("tick", "tick", "no-such-ad", "banner", "view", eventTime, "0.0.0.0");
    }
}
