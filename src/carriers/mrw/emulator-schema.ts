/**
 * What the MRW emulator checks before any business rule: the element names of MRW's WSDLs (the `sequence`s of
 * MRWEnvio.asmx's schema and of TrackingService's GetEnvios). An element the schema does not have is refused the
 * way ASP.NET refuses a request it cannot read: a Client fault "Server was unable to read request. ---> …".
 */
import { EmulatedSoapFault } from '../emulator/soap.js';
import { xmlList, type XmlNode, type XmlObject } from '../soap.js';

/** Child elements of each type: the child's type name, or `text`/`int` for simple content. */
type Children = Readonly<Record<string, string>>;

const STRINGS = (...names: string[]): Children => Object.fromEntries(names.map((n) => [n, 'text']));

const TYPES: Readonly<Record<string, Children>> = {
  TransmEnvio: { request: 'TransmEnvioRequest' },
  TransmEnvioRequest: { ModificaDatosEnvio: 'ModificaDatosEnvioRequest', DatosRecogida: 'DatosRemitenteRequest', DatosEntrega: 'DatosDestinatarioRequest', DatosServicio: 'DatosServicioRequest' },
  ModificaDatosEnvioRequest: STRINGS('NumeroEnvioOriginal'),
  DatosRemitenteRequest: { Direccion: 'DireccionRequest', ...STRINGS('Nif', 'Nombre', 'Telefono', 'Contacto'), Horario: 'HorarioRequest', Observaciones: 'text' },
  DatosDestinatarioRequest: { Direccion: 'DireccionRequest', ...STRINGS('Nif', 'Nombre', 'Telefono', 'Contacto', 'ALaAtencionDe'), Horario: 'HorarioRequest', Observaciones: 'text' },
  DireccionRequest: STRINGS(
    'CodigoDireccion', 'CodigoTipoVia', 'Via', 'Numero', 'Resto', 'CodigoPostal', 'Poblacion', 'Provincia', 'Estado', 'CodigoPais', 'TipoPuntoEntrega',
    'CodigoPuntoEntrega', 'CodigoFranquiciaAsociadaPuntoEntrega', 'TipoPuntoRecogida', 'CodigoPuntoRecogida', 'CodigoFranquiciaAsociadaPuntoRecogida', 'Agencia',
  ),
  HorarioRequest: { Rangos: 'ArrayOfHorarioRangoRequest' },
  ArrayOfHorarioRangoRequest: { HorarioRangoRequest: 'HorarioRangoRequest' },
  HorarioRangoRequest: STRINGS('Desde', 'Hasta'),
  DatosServicioRequest: {
    ...STRINGS('Fecha', 'NumeroAlbaran', 'Referencia', 'EnFranquicia', 'CodigoServicio', 'DescripcionServicio', 'Frecuencia', 'CodigoPromocion', 'NumeroSobre'),
    Bultos: 'ArrayOfBultoRequest',
    ...STRINGS(
      'NumeroBultos', 'Peso', 'NumeroPuentes', 'EntregaSabado', 'Entrega830', 'EntregaPartirDe', 'Gestion', 'Retorno', 'CodigoServicioRetorno',
      'ConfirmacionInmediata', 'Reembolso', 'ImporteReembolso', 'TipoMercancia', 'ValorDeclarado', 'ServicioEspecial', 'CodigoMoneda', 'ValorEstadistico',
      'ValorEstadisticoEuros',
    ),
    Notificaciones: 'ArrayOfNotificacionRequest',
    SeguroOpcional: 'SeguroOpcionalRequest',
    ...STRINGS('TramoHorario', 'PortesDebidos', 'Mascara_Tipos', 'Mascara_Campos', 'Asistente'),
  },
  ArrayOfBultoRequest: { BultoRequest: 'BultoRequest' },
  BultoRequest: STRINGS('Alto', 'Largo', 'Ancho', 'Dimension', 'Referencia', 'Peso', 'NumeroBulto'),
  ArrayOfNotificacionRequest: { NotificacionRequest: 'NotificacionRequest' },
  NotificacionRequest: STRINGS('CanalNotificacion', 'TipoNotificacion', 'MailSMS'),
  SeguroOpcionalRequest: STRINGS('CodigoNaturaleza', 'CantidadBoletos', 'ValorAsegurado'),
  GetEtiquetaEnvio: { request: 'EtiquetaEnvioRequest' },
  EtiquetaEnvioRequest: { ...STRINGS('NumeroEnvio', 'NumerosEtiqueta', 'SeparadorNumerosEnvio', 'FechaInicioEnvio', 'FechaFinEnvio', 'TipoEtiquetaEnvio'), ReportTopMargin: 'int', ReportLeftMargin: 'int' },
  CancelarEnvio: { request: 'CancelarEnvioRequest' },
  CancelarEnvioRequest: { CancelaEnvio: 'CancelaEnvioRequest' },
  CancelaEnvioRequest: STRINGS('NumeroEnvioOriginal'),
  AuthInfo: STRINGS('CodigoFranquicia', 'CodigoAbonado', 'CodigoDepartamento', 'UserName', 'Password'),
  GetEnvios: {
    ...STRINGS('login', 'pass'), codigoIdioma: 'int',
    ...STRINGS('tipoFiltro', 'valorFiltroDesde', 'valorFiltroHasta', 'fechaDesde', 'fechaHasta', 'tipoInformacion', 'codigoAbonado', 'codigoFranquicia'),
  },
};

function unreadable(namespace: string, detail: string): never {
  throw new EmulatedSoapFault('Client', `Server was unable to read request. ---> There is an error in XML document. ---> ${detail}`.replace('{ns}', namespace));
}

function checkNode(type: string, node: XmlNode, namespace: string): void {
  const children = TYPES[type]!;
  if (node === '') return;
  if (typeof node !== 'object' || Array.isArray(node)) unreadable(namespace, `The element of type '${type}' in namespace '{ns}' cannot hold text.`);
  for (const [name, value] of Object.entries(node as XmlObject)) {
    const child = Object.hasOwn(children, name) ? children[name]! : undefined;
    if (!child) unreadable(namespace, `The element '${name}' in namespace '{ns}' was not expected.`);
    for (const item of xmlList(value)) {
      if (child === 'text' || child === 'int') {
        if (typeof item !== 'string') unreadable(namespace, `The element '${name}' in namespace '{ns}' holds elements where text is expected.`);
        else if (child === 'int' && !/^[+-]?\d+$/.test(item)) unreadable(namespace, `Input string '${item}' of '${name}' was not in a correct format.`);
      } else {
        checkNode(child, item, namespace);
      }
    }
  }
}

/** An operation's content, or a header block, against MRW's schema; a misfit throws the Client fault. */
export function checkAgainstSchema(type: string, content: XmlObject, namespace: string): void {
  if (Object.hasOwn(TYPES, type)) checkNode(type, content, namespace);
}
