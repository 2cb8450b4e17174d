package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.Kubelet;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Figures read from the pods' metrics, scraped as the release's ServiceMonitor says. */
final class PodMetrics {

    private static final Pattern RESTORED = Pattern.compile("(?m)^weir_restore_records_total\\{[^}]*} ([0-9.E+-]+)$");

    private PodMetrics() {}

    /**
     * Each pod's weir_restore_records_total (records restored since its container started); NaN when
     * the scrape fails (a pod that just went away).
     */
    static Map<String, Double> restoredRecords(Collection<Kubelet> pods, ServiceMonitorScrape scrape) {
        Map<String, Double> restored = new TreeMap<>();
        pods.forEach(k -> {
            try {
                Matcher m = RESTORED.matcher(scrape.scrape(k));
                double sum = 0;
                while (m.find()) {
                    sum += Double.parseDouble(m.group(1));
                }
                restored.put(k.name(), sum);
            } catch (IllegalStateException e) {
                restored.put(k.name(), Double.NaN);
            }
        });
        return restored;
    }

    /**
     * Every ready pod scraped as Prometheus would; fails naming the first pod whose scrape fails or
     * carries no Weir series. Returns the figures: pods scraped and how.
     */
    static Map<String, Object> scrapeAll(Collection<Kubelet> pods, ServiceMonitorScrape scrape) {
        int series = 0;
        for (Kubelet pod : pods) {
            String body = scrape.scrape(pod);
            long weir = body.lines().filter(l -> l.startsWith("weir_")).count();
            if (weir == 0) {
                throw new IllegalStateException("the metrics of " + pod.name() + " carry no weir_ series");
            }
            series += (int) weir;
        }
        return Map.of("pods_scraped", pods.size(), "series_scraped", series, "scrape", scrape.describe());
    }
}
