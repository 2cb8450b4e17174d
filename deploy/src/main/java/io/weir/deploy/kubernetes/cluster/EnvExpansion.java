package io.weir.deploy.kubernetes.cluster;

import java.util.Map;

/**
 * The kubelet's {@code $(VAR)} expansion of env values, {@code command} and {@code args}: a reference
 * to a variable defined earlier becomes its value, {@code $$} becomes {@code $}, and anything else,
 * an undefined variable's reference included, stays as written.
 */
final class EnvExpansion {

    private EnvExpansion() {}

    static String expand(String input, Map<String, String> defined) {
        if (input == null || input.indexOf('$') < 0) {
            return input;
        }
        StringBuilder out = new StringBuilder(input.length());
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (c != '$' || i + 1 == input.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = input.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
                continue;
            }
            int close = next == '(' ? input.indexOf(')', i + 2) : -1;
            if (close < 0) {
                out.append(c);
                i++;
                continue;
            }
            String name = input.substring(i + 2, close);
            String value = defined.get(name);
            out.append(value != null ? value : input.substring(i, close + 1));
            i = close + 1;
        }
        return out.toString();
    }
}
