package io.weir.deploy.compose;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Every PromQL query of a Grafana dashboard: its panels' targets and its query variables. */
public record DashboardQueries(List<String> exprs, Set<String> variableMetrics) {

    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");

    public static DashboardQueries of(JsonNode dashboard) {
        List<String> exprs = new ArrayList<>();
        collect(dashboard.path("panels"), exprs);
        Set<String> variableMetrics = new LinkedHashSet<>();
        dashboard.path("templating").path("list").forEach(v -> {
            Matcher m = LABEL_VALUES.matcher(v.path("definition").asText() + " "
                    + v.path("query").path("query").asText());
            while (m.find()) {
                variableMetrics.add(m.group(1));
            }
        });
        return new DashboardQueries(exprs, variableMetrics);
    }

    private static void collect(JsonNode panels, List<String> exprs) {
        for (JsonNode panel : panels) {
            panel.path("targets").forEach(t -> exprs.add(t.path("expr").asText()));
            collect(panel.path("panels"), exprs); // panels inside collapsed rows
        }
    }

    public Set<String> metricNames() {
        Set<String> names = new LinkedHashSet<>(variableMetrics);
        exprs.forEach(e -> names.addAll(PromQl.metricNames(e)));
        return names;
    }
}
