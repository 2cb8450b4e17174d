package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.Kubelet;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Figures read from the pods' {@code /metrics} on their published HTTP ports. */
final class PodMetrics {

    private static final Pattern RESTORED = Pattern.compile("(?m)^weir_restore_records_total\\{[^}]*} ([0-9.E+-]+)$");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PodMetrics() {}

    /** Each pod's weir_restore_records_total (records restored since its container started); NaN when unreachable. */
    static Map<String, Double> restoredRecords(Collection<Kubelet> pods) {
        Map<String, Double> restored = new TreeMap<>();
        pods.forEach(k -> {
            try {
                String body = HTTP.send(
                                HttpRequest.newBuilder(
                                                URI.create("http://127.0.0.1:" + k.hostPort("http") + "/metrics"))
                                        .timeout(Duration.ofSeconds(5))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                Matcher m = RESTORED.matcher(body);
                double sum = 0;
                while (m.find()) {
                    sum += Double.parseDouble(m.group(1));
                }
                restored.put(k.name(), sum);
            } catch (IOException e) {
                restored.put(k.name(), Double.NaN);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return restored;
    }
}
