/**
 * A KPI card: a label and a big value.
 *
 * @module
 */

/** Props of {@linkcode KpiCard}. */
export interface KpiCardProps {
  id: string;
  label: string;
  value: string;
  unit?: string;
}

/** One figure. */
export default function KpiCard(props: KpiCardProps) {
  return (
    <div class="kpi" id={props.id}>
      <span class="kpi-label">{props.label}</span>
      <span class="kpi-value">
        {props.value}
        {props.unit ? <small>{props.unit}</small> : null}
      </span>
    </div>
  );
}
