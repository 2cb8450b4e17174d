package io.weir.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line must
 * be a {@code # HELP}, a {@code # TYPE} or a sample {@code name{label="value",...} value}; anything
 * else fails, so a scraper would accept what passes.
 */
public final class PrometheusText {

    /** One sample: metric name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?\\d+)?");
    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\[\\\\\"n])*)\",?");
    private static final Pattern META = Pattern.compile("# (HELP|TYPE) (" + NAME + ") .*");

    private PrometheusText() {}

    /** @throws IllegalArgumentException naming the first line that is not valid */
    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            if (line.isEmpty() || line.equals("# EOF")) {
                continue;
            }
            if (line.startsWith("#")) {
                if (!META.matcher(line).matches()) {
                    throw new IllegalArgumentException("line " + n + " is not a valid comment: " + line);
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("line " + n + " is not a valid sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null && !m.group(3).isEmpty()) {
                Matcher l = LABEL.matcher(m.group(3));
                int end = 0;
                while (l.find() && l.start() == end) {
                    labels.put(l.group(1), l.group(2));
                    end = l.end();
                }
                if (end != m.group(3).length()) {
                    throw new IllegalArgumentException("line " + n + " has malformed labels: " + line);
                }
            }
            samples.add(new Sample(m.group(1), labels, value(m.group(4), n)));
        }
        return samples;
    }

    private static double value(String s, int line) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + line + " has a value that is not a number: " + s);
                }
            }
        };
    }
}
