package io.weir.samples.ysb;

/**
 * An ad event of the Yahoo Streaming Benchmark, as its generator writes it (JSON): who saw which
 * ad on which page, what they did ({@code view}, {@code click} or {@code purchase}) and when
 * (epoch milliseconds).
 */
public record AdEvent(
        String userId, String pageId, String adId, String adType, String eventType, long eventTime, String ipAddress) {}
