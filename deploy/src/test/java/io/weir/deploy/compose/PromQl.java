package io.weir.deploy.compose;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names and grouping labels a PromQL expression refers to, enough for the dashboard's
 * queries (no parser of the whole language): label matchers, strings, ranges, Grafana variables
 * and the label lists of {@code by}/{@code without}/{@code on}/{@code ignoring} are removed, and
 * what is left that is neither a function call nor a keyword is a metric name. Public for the
 * chart's tests, which check the PrometheusRule's alerts the same way.
 */
public final class PromQl {

    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "offset", "bool", "inf", "nan");

    private PromQl() {}

    public static Set<String> metricNames(String expr) {
        String rest = withoutLiterals(expr);
        rest = GROUPING.matcher(rest).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(rest);
        while (m.find()) {
            if (m.group(1) == null
                    && !KEYWORDS.contains(m.group().toLowerCase())
                    && !Character.isDigit(rest.charAt(Math.max(0, m.start() - 1)))) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** The labels named in {@code by (...)} and {@code without (...)} clauses. */
    public static Set<String> groupingLabels(String expr) {
        Set<String> labels = new LinkedHashSet<>();
        Matcher m = GROUPING.matcher(withoutLiterals(expr));
        while (m.find()) {
            if (m.group(1).equals("by") || m.group(1).equals("without")) {
                for (String label : m.group(2).split(",")) {
                    if (!label.isBlank()) {
                        labels.add(label.trim());
                    }
                }
            }
        }
        return labels;
    }

    private static String withoutLiterals(String expr) {
        return expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\$\\{?\\w+}?", " ")
                .replaceAll("\\b\\d+(\\.\\d+)?([eE][+-]?\\d+)?\\b", " ");
    }
}
