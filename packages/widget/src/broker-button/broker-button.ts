/** Defines `<dk-broker-button>` (the only side effect of this module). */
import { DkBrokerButton } from './broker-button.component.ts';

export { DkBrokerButton };
export { BROKER_STATES, type DkBrokerState } from './broker-button.component.ts';
export {
  brokerStringsAr,
  brokerStringsEn,
  brokerStringsFor,
  brokerStringsFr,
  type DkBrokerStrings,
} from './broker-strings.ts';
export { DkBrokerageRequestEvent, type DkBrokerageRequestDetail } from '../events/dk-brokerage-request.ts';
export default DkBrokerButton;

if (!customElements.get('dk-broker-button')) customElements.define('dk-broker-button', DkBrokerButton);

declare global {
  interface HTMLElementTagNameMap {
    'dk-broker-button': DkBrokerButton;
  }
}
