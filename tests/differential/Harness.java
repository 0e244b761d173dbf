// The Java side of the differential test across signers (tests/differential/run.py), run as a
// single-file program on the signing library's classes (`java -cp CLASSES Harness.java KEY`):
// `sign <base64>` / `verify <base64>` lines in, one `ok <hex>` | `refused R1..R4` |
// `refused other` | `missing` | `mismatch` line out each.

import com.baas.signing.CanonicalException;
import com.baas.signing.Flattened;
import com.baas.signing.PrivateKey;
import com.baas.signing.Signer;
import com.baas.signing.VerifyException;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

public final class Harness {
    private Harness() {
    }

    static String refusal(CanonicalException e) {
        return e != null && e.kind() == CanonicalException.Kind.AMBIGUOUS && e.rule() != null
                ? "refused " + e.rule().id() : "refused other";
    }

    static String run(String op, byte[] body, PrivateKey key) {
        try {
            if (op.equals("sign")) {
                return "ok " + Signer.sign(body, key);
            }
            Flattened flat = Signer.verify(body, key);
            return "ok " + flat.signatureHex(key);
        } catch (VerifyException e) {
            return switch (e.kind()) {
                case MISSING -> "missing";
                case MISMATCH -> "mismatch";
                default -> refusal(e.getCause());
            };
        } catch (CanonicalException e) {
            return refusal(e);
        }
    }

    public static void main(String[] args) throws Exception {
        PrivateKey key = new PrivateKey(args.length > 0 ? args[0] : "differential-key");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            int space = line.indexOf(' ');
            byte[] body = Base64.getDecoder().decode(line.substring(space + 1).trim());
            out.append(run(line.substring(0, space), body, key)).append('\n');
        }
        PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        stdout.print(out);
        stdout.flush();
    }
}
