import assert from "node:assert/strict";
import { clientOptions, connectionOf } from "../../../plugins/temp_eta/mqtt_client.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";

Deno.test("clientOptions() carries credentials, TLS and keepalive from the settings", () => {
  const pem = "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----";
  const s = validateSettings({
    mqtt_broker: "::1",
    mqtt_port: 8883,
    mqtt_username: "eta",
    mqtt_password: "pw",
    mqtt_tls_enabled: true,
    mqtt_ca_cert: pem,
    mqtt_keepalive: 15,
  });
  const c = connectionOf(s);
  assert.equal(c.url, "mqtts://[::1]:8883");
  const o = clientOptions(c, c.caText);
  assert.match(o.clientId, /^localbench_temp_eta_[0-9a-f]{8}$/);
  assert.deepEqual({ ...o, clientId: "" }, {
    clientId: "",
    keepalive: 15,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    username: "eta",
    password: "pw",
    rejectUnauthorized: true,
    ca: pem,
    will: { topic: "localbench/temp_eta/status", payload: "offline", qos: 1, retain: true },
  });
  const insecure = connectionOf({ ...s, mqtt_tls_insecure: true, mqtt_ca_cert: "" });
  assert.equal(clientOptions(insecure, undefined).rejectUnauthorized, false);
  assert.equal(clientOptions(insecure, undefined).ca, undefined);
  const plain = connectionOf(validateSettings({}));
  assert.deepEqual(Object.keys(clientOptions(plain, undefined)).sort(), [
    "clientId",
    "connectTimeout",
    "keepalive",
    "reconnectPeriod",
    "will",
  ]);
});
