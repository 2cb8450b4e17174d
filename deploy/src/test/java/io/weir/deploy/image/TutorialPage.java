package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What step 6 of docs/tutorial.md feeds the service and asks it, read from the page so that
 * {@link TutorialIT} sends what a reader sends: the {@code key|value} lines of its console producer
 * for the customers, its shell loop of orders (with {@code $now}, the time the reader runs it), and
 * its {@code curl} with the count it promises.
 *
 * @param customersTopic the topic the heredoc lines go to
 * @param customers the heredoc's {@code key|value} lines
 * @param ordersTopic the topic the loop's lines go to
 * @param orderIds the loop's values of {@code $i}
 * @param orderTemplate the loop's {@code key|value} line, with {@code $i} and {@code $now} in it
 * @param port the port the page's {@code curl} asks
 * @param query the path it asks
 * @param value the count the page says it answers
 */
record TutorialPage(
        String customersTopic,
        List<KeyValue<String, String>> customers,
        String ordersTopic,
        List<String> orderIds,
        String orderTemplate,
        int port,
        String query,
        long value) {

    static final String PATH = "docs/tutorial.md";

    private static final Pattern HEREDOC = Pattern.compile(
            "--topic (\\S+) --property parse.key=true --property key.separator='\\|' <<'EOF'\\n(.*?)\\nEOF\\n",
            Pattern.DOTALL);
    private static final Pattern LOOP = Pattern.compile(
            "for i in ([0-9 ]+); do echo \"(.+?)\"; done \\|\\n.*?--topic (\\S+) --property parse.key=true"
                    + " --property key.separator='\\|'\\n",
            Pattern.DOTALL);
    private static final Pattern CURL = Pattern.compile("curl -s localhost:(\\d+)(\\S+)\\s+# \"value\": (\\d+)");

    static TutorialPage read(Path root) {
        String step = step6(root.resolve(PATH));
        Matcher heredoc = find(HEREDOC, step, "the customers' console producer with a heredoc");
        Matcher loop = find(LOOP, step, "the loop of orders piped to a console producer");
        Matcher curl = find(CURL, step, "the curl of the count with the value it answers");
        return new TutorialPage(
                heredoc.group(1),
                heredoc.group(2).lines().map(TutorialPage::keyValue).toList(),
                loop.group(3),
                List.of(loop.group(1).strip().split(" ")),
                loop.group(2).replace("\\\"", "\""), // the shell's escaped quotes, as echo prints them
                Integer.parseInt(curl.group(1)),
                curl.group(2),
                Long.parseLong(curl.group(3)));
    }

    /** The loop's records, as {@code echo} prints them when {@code $now} is {@code now}. */
    List<KeyValue<String, String>> orders(long now) {
        List<KeyValue<String, String>> orders = new ArrayList<>();
        for (String i : orderIds) {
            orders.add(keyValue(orderTemplate.replace("$i", i).replace("$now", Long.toString(now))));
        }
        return orders;
    }

    private static KeyValue<String, String> keyValue(String line) {
        int separator = line.indexOf('|');
        assertThat(separator).as("a key|value line: %s", line).isPositive();
        return KeyValue.of(line.substring(0, separator), line.substring(separator + 1));
    }

    private static String step6(Path page) {
        try {
            String text = Files.readString(page);
            int start = text.indexOf("\n## 6. ");
            int end = text.indexOf("\n## 7. ");
            assertThat(start)
                    .as("%s has a step 6 before its step 7", page)
                    .isPositive()
                    .isLessThan(end);
            return text.substring(start, end);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Matcher find(Pattern pattern, String text, String what) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as("step 6 of %s has %s (%s)", PATH, what, pattern).isTrue();
        return m;
    }
}
